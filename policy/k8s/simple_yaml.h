// A fast path for the YAML and JSON that tools print.
//
// libyaml reads about 280 instructions per byte; a fleet's inventory (`kubectl get
// resourceslices -A -o yaml`, tens of MB) spends most of its decoding time there. What
// kubectl, Helm and generators print uses a small part of YAML: block mappings and sequences
// (indentless ones included), one-line plain and quoted scalars, `#` comments, and flow
// collections (`{string: gpu}`, whole JSON documents). ScanSimpleYaml reads exactly that part
// and gives up at anything else (anchors, tags, block and multi-line scalars, tabs, non-ASCII
// bytes, empty flow entries, ...), so that the caller parses that document again with libyaml.
//
// The contract is parity, not a second YAML dialect: when ScanSimpleYaml accepts a text,
// libyaml accepts it too and reports the same node events, with the same offsets, values and
// styles. tests/policy/k8s/simple_yaml_test.cc compares the two on tables and on the corpus,
// and the k8s_decode fuzz target compares them on every input it makes.
#ifndef DRAGUARD_POLICY_K8S_SIMPLE_YAML_H_
#define DRAGUARD_POLICY_K8S_SIMPLE_YAML_H_

#include <cstddef>
#include <string_view>

#include "policy/k8s/document.h"

namespace draguard::k8s {

// The node events of one document, in document order, as libyaml reports them (without
// anchors and tags, which the fast path never accepts). Offsets are byte offsets into the
// scanned text: a scalar starts at its first character or opening quote, a block mapping at
// its first key, a block sequence at its first `-`, a flow collection at its bracket. An empty
// value (`key:` with nothing after it) is an empty plain scalar right after its `:` or `-`.
class YamlNodeSink {
 public:
  virtual ~YamlNodeSink() = default;
  virtual void OnScalar(size_t offset, std::string_view value, ScalarStyle style) = 0;
  // `kind` is kSequence or kMap.
  virtual void OnOpen(size_t offset, NodeKind kind, bool flow) = 0;
  virtual void OnClose() = 0;
};

// Scans `text`: one document as kubectl splits a stream (optionally starting with a `---`
// line), whose root is a collection. True: every node event went to `sink`, exactly as libyaml
// would report them. False: the text leaves the subset (or is not valid YAML); `sink` may have
// received some events, which the caller discards before parsing the text with libyaml.
bool ScanSimpleYaml(std::string_view text, YamlNodeSink& sink);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_SIMPLE_YAML_H_
