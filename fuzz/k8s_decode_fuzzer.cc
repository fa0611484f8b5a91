// Fuzzes Decode(): any bytes must decode without crashing, and every diagnostic must be
// positioned inside the input, including value offsets mapped through scalars. The YAML fast
// path (simple_yaml.h) must give libyaml's trees and diagnostics on every input, and trees
// built in the previous document's nodes (ForEachDocument) the fresh ones. Inputs over
// 16 KiB are skipped (YAML cost grows with size, not with interest); limits are tightened so
// that alias bombs and deep nesting are refused quickly.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "policy/k8s/decode.h"
#include "policy/k8s/document.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "k8s_decode invariant failed: %s\n", what);
    std::abort();
  }
}

void CheckPosition(const draguard::SourceText& source, const draguard::Diagnostic& d) {
  Check(d.position.known(), "diagnostic without position");
  Check(d.position.line <= source.line_count() + 1, "line past the end of the input");
  Check(d.position.column >= 1, "column before the start of the line");
}

// The documents and diagnostics of `source`, with or without the fast path.
std::string DescribeParse(const draguard::SourceText& source, bool fast) {
  draguard::k8s::ParseOptions options;
  options.max_depth = 64;
  options.max_nodes = 20'000;
  options.simple_yaml_fast_path = fast;
  return draguard::k8s::DebugString(draguard::k8s::ParseDocuments(source, options));
}

// The same as DescribeParse(source, true), from ForEachDocument: each tree built in the
// previous document's nodes, where ParseDocuments moves every tree out.
std::string DescribeRecycled(const draguard::SourceText& source) {
  draguard::k8s::ParseOptions options;
  options.max_depth = 64;
  options.max_nodes = 20'000;
  std::string out;
  const draguard::Diagnostics diagnostics = draguard::k8s::ForEachDocument(
      source, options, [&](draguard::k8s::Document& doc) {
        out += "document " + std::to_string(doc.index) + (doc.empty ? " empty\n" : "\n") +
               doc.root.DebugString();
      });
  for (const draguard::Diagnostic& d : diagnostics) {
    out += d.code + " " + std::to_string(d.position.line) + ":" +
           std::to_string(d.position.column) + " " + d.message + "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return 0;
  draguard::SourceText source("fuzz.yaml",
                              std::string(reinterpret_cast<const char*>(data), size));
  draguard::k8s::DecodeOptions options;
  options.parse.max_depth = 64;
  options.parse.max_nodes = 20'000;
  const std::string fresh = DescribeParse(source, true);
  Check(fresh == DescribeParse(source, false), "the YAML fast path and libyaml disagree");
  Check(fresh == DescribeRecycled(source), "a tree built in recycled nodes differs");
  draguard::k8s::DecodeResult result = draguard::k8s::Decode(source, options);
  for (const draguard::Diagnostic& d : result.diagnostics) CheckPosition(source, d);
  // Locate synthetic diagnostics at every path a validator could name, with value offsets.
  for (const draguard::k8s::DecodedObject& object : result.objects) {
    for (const char* field : {"", "metadata.name", "spec", "spec.devices.requests[0].exactly.count",
                              "spec.devices.requests[0].exactly.selectors[0].cel.expression",
                              "spec.selectors[0].cel.expression", "spec.devices[0].attributes",
                              "spec.devices.requests[99]", "metadata.labels[a/b]"}) {
      for (int offset : {-1, 0, 3, 1000}) {
        draguard::Diagnostic d;
        d.field = field;
        d.value_offset = offset;
        object.Locate(d);
        CheckPosition(source, d);
      }
    }
  }
  return 0;
}
