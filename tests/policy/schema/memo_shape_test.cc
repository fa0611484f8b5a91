// Issue 16: the selector memo answers by shape (check.cc, "the memo by shape"). Differential:
// selectors of the bench manifests, of a table of the literals the check reads, and of
// ../shared/corpus (when present), each checked again with its literals rewritten (fresh
// values of other lengths, values taken from other selectors, moved spaces), through one memo
// that has seen the others: every answer must equal a full check's, byte for byte. Sampled
// (a fixed seed, a few variants a selector), so that it stays fast under ASan.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/cel/lexer.h"
#include "policy/cel/selector_shape.h"
#include "policy/k8s/decode.h"
#include "policy/schema/check.h"
#include "tests/policy/schema/check_helpers.h"

namespace draguard::schema {
namespace {

namespace fs = std::filesystem;

// The selectors of the bench reviews (bench/webhook-review*.json, case (b)'s fresh clause)
// and the literals the check reads: closed value sets, type attributes, drivers, types
// compared, ordering, unguarded suggestions (which quote the text), presence by name.
const char* const kSelectors[] = {
    R"(device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA A100") && device.attributes["gpu.nvidia.com"].productName != "x1-64")",
    R"(device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA A100") && (device.attributes["gpu.nvidia.com"].productName != "x1-65" || device.attributes["gpu.nvidia.com"].productName == "x1-65-1"))",
    R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)",
    R"(device.attributes["nic.example.com"].interface.startsWith("eth"))",
    R"(device.attributes["gpu.intel.com"].driver == "xe")",
    R"(device.attributes["gpu.intel.com"].driver != "i915" && device.attributes["gpu.intel.com"].driver > "a")",
    R"(device.attributes["gpu.nvidia.com"].type == "gpu")",
    R"(device.attributes["gpu.nvidia.com"].type != "GPU")",
    R"(device.attributes["gpu.nvidia.com"].type == "mig" && device.attributes["gpu.nvidia.com"].profile == "1g.5gb")",
    R"(device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "A100")",
    R"(device.attributes["gpu.nvidia.com"].cardIndex == "3")",
    R"(device.attributes["gpu.nvidia.com"].cardIndex == 3)",
    R"(device.attributes["gpu.nvidia.com"].productName > "A")",
    R"(device.attributes["gpu.nvidia.com"].productName == 7)",
    R"(device.attributes["gpu.nvidia.com"].driverVersion >= "550.0.0")",
    R"("productName" in device.attributes["gpu.nvidia.com"] && device.attributes["gpu.nvidia.com"].productName == "H100")",
    R"(device.attributes["gpu.nvidia.com"].productNam == "H100")",
    R"(device.attributes["gpu.nvidia.cm"].productName == "H100")",
    R"(device.attributes["dra.net/rdma"] == "true")",
};

std::vector<std::string*> Selectors(k8s::DeviceClaim& claim) {
  std::vector<std::string*> out;
  auto add = [&](k8s::DeviceRequestCommon& r) {
    for (k8s::DeviceSelector& s : r.selectors) {
      if (s.cel) out.push_back(&s.cel->expression);
    }
  };
  for (k8s::DeviceRequest& r : claim.requests) {
    if (r.exactly) add(*r.exactly);
    for (k8s::DeviceSubRequest& sub : r.first_available) add(sub);
  }
  return out;
}

// The selector texts of `object` (claims, templates, classes), to rewrite in place.
std::vector<std::string*> Selectors(k8s::ObjectVariant& object) {
  if (auto* c = std::get_if<k8s::ResourceClaim>(&object)) return Selectors(c->spec.devices);
  if (auto* t = std::get_if<k8s::ResourceClaimTemplate>(&object)) {
    return Selectors(t->spec.devices);
  }
  std::vector<std::string*> out;
  if (auto* d = std::get_if<k8s::DeviceClass>(&object)) {
    for (k8s::DeviceSelector& s : d->spec.selectors) {
      if (s.cel) out.push_back(&s.cel->expression);
    }
  }
  return out;
}

std::string ClaimYaml(const std::string& klass, const std::string& selector) {
  std::string quoted = "'";
  for (char c : selector) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n"
         "  devices:\n    requests:\n    - name: r\n      exactly:\n        deviceClassName: " +
         klass + "\n        selectors:\n        - cel:\n            expression: " + quoted +
         "'\n";
}

class Differential {
 public:
  Differential() {
    memoized_.memo = std::make_shared<SelectorMemo>();
    memoized_.memo_generation = memoized_.memo->NewGeneration();
    // As the webhook checks: the memo by shape takes its tokens from the compile cache.
    memoized_.compiled = std::make_shared<cel::SelectorCache>();
  }

  void AddFile(const std::string& name, const std::string& text) {
    files_.push_back(std::make_unique<k8s::DecodeResult>(k8s::Decode(SourceText(name, text))));
    for (k8s::DecodedObject& o : files_.back()->objects) {
      if (const auto* c = std::get_if<k8s::DeviceClass>(&o.object)) {
        plain_.classes.push_back(c);
        memoized_.classes.push_back(c);
      }
      for (std::string* s : Selectors(o.object)) {
        Diagnostics issues;
        const std::vector<cel::Token> tokens = cel::Lex(*s, issues, 1);
        for (size_t i = 0; issues.empty() && i < tokens.size(); ++i) {
          if (tokens[i].kind == cel::TokenKind::kStringLit) {
            pool_.insert(s->substr(static_cast<size_t>(tokens[i].offset),
                                   static_cast<size_t>(tokens[i].length)));
          }
        }
      }
    }
  }

  // Checks every object as written, then `variants` rewrites of each, through the memo and
  // without; counts the checks compared.
  void Run(int variants) {
    pool_list_.assign(pool_.begin(), pool_.end());
    for (auto& file : files_) {
      for (k8s::DecodedObject& o : file->objects) {
        if (Selectors(o.object).empty()) continue;
        Compare(o.object, "as written");
        for (int v = 0; v < variants; ++v) {
          k8s::ObjectVariant copy = o.object;
          std::string changed;
          for (std::string* s : Selectors(copy)) {
            if (Rewrite(*s)) changed += "\n  " + *s;
          }
          if (!changed.empty()) Compare(copy, changed);
        }
      }
    }
  }

  int compared() const { return compared_; }
  CacheStats stats() const { return memoized_.memo->stats(); }

 private:
  void Compare(const k8s::ObjectVariant& object, const std::string& what) {
    Diagnostics full, remembered;
    CheckObject(object, testing::CatalogSchema(), plain_, full);
    CheckObject(object, testing::CatalogSchema(), memoized_, remembered);
    ASSERT_EQ(testing::Rendered(remembered), testing::Rendered(full)) << what;
    ++compared_;
  }

  // Rewrites one or two abstracted literals of `text` (and moves a space); false when it has
  // none.
  bool Rewrite(std::string& text) {
    Diagnostics issues;
    const std::vector<cel::Token> tokens = cel::Lex(text, issues, 1);
    if (!issues.empty()) return false;
    std::vector<size_t> literals;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (cel::IsAbstractedLiteral(tokens, i)) literals.push_back(i);
    }
    if (literals.empty()) return false;
    std::string out = text;
    // From the last token back, so that earlier offsets stay valid.
    const size_t pick = literals[rng_() % literals.size()];
    for (size_t k = literals.size(); k-- > 0;) {
      const size_t i = literals[k];
      if (i != pick && rng_() % 3 != 0) continue;
      const cel::Token& t = tokens[i];
      out.replace(static_cast<size_t>(t.offset), static_cast<size_t>(t.length),
                  Replacement(t.kind));
    }
    if (rng_() % 2 == 0) {  // a space more before some token: offsets move
      const cel::Token& t = tokens[rng_() % tokens.size()];
      if (static_cast<size_t>(t.offset) <= out.size()) {
        // Only when the text before it is unchanged (a token before every rewrite).
        if (t.offset < tokens[literals.front()].offset) {
          out.insert(static_cast<size_t>(t.offset), " ");
        }
      }
    }
    text = std::move(out);
    return true;
  }

  std::string Replacement(cel::TokenKind kind) {
    switch (kind) {
      case cel::TokenKind::kStringLit:
        if (rng_() % 2 == 0 && !pool_list_.empty()) return pool_list_[rng_() % pool_list_.size()];
        return "\"v" + std::to_string(rng_() % 100000) + "\"";
      case cel::TokenKind::kIntLit:
        return std::to_string(rng_() % 1000);
      case cel::TokenKind::kUintLit:
        return std::to_string(rng_() % 1000) + "u";
      case cel::TokenKind::kDoubleLit:
        return std::to_string(rng_() % 1000) + ".5";
      default:
        return "\"\"";  // bytes and others: a string, of another token kind (a shape miss)
    }
  }

  CheckOptions plain_;
  CheckOptions memoized_;
  std::vector<std::unique_ptr<k8s::DecodeResult>> files_;
  std::set<std::string> pool_;  // string literals as written, quotes included
  std::vector<std::string> pool_list_;
  std::mt19937 rng_{16};
  int compared_ = 0;
};

TEST(SelectorMemoShapeTest, AnswersEqualFullChecksOverTableAndBench) {
  Differential d;
  std::string yaml;
  for (const char* s : kSelectors) yaml += ClaimYaml("gpu.nvidia.com", s) + "---\n";
  for (const char* s : kSelectors) yaml += ClaimYaml("unknown-class", s) + "---\n";
  d.AddFile("table.yaml", yaml);
  d.Run(/*variants=*/12);
  EXPECT_GT(d.compared(), 300);
  EXPECT_GT(d.stats().hits, 0u);
}

TEST(SelectorMemoShapeTest, AnswersEqualFullChecksOverCorpus) {
  const fs::path root = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!fs::exists(root / "README.md")) GTEST_SKIP() << "no corpus under " << DRAGUARD_SHARED_DIR;
  Differential d;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) d.AddFile(p.string(), testing::ReadFile(p));
  d.Run(/*variants=*/2);
  EXPECT_GT(d.compared(), 0);
}

}  // namespace
}  // namespace draguard::schema
