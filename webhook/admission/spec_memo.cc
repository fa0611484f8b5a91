#include "webhook/admission/spec_memo.h"

#include <utility>

#include "policy/common/strings.h"
#include "webhook/admission/satisfiability_check.h"

namespace draguard::webhook {

namespace {

// Every part of the key in one string, in a per-thread buffer (a lookup per request must not
// allocate). Each part but the last is preceded by its length (AppendKeyString), so that no
// two keys write the same text whatever bytes the parts hold. `generation` counts the texts
// the buffer has held, so that a miss can tell whether the buffer still holds its key's text
// (SpecLookup::key_generation_) and its insert need not write it again.
struct KeyBuffer {
  std::string text;
  uint64_t generation = 0;
};

KeyBuffer& ThreadKeyBuffer() {
  thread_local KeyBuffer buffer;
  return buffer;
}

const std::string& SpecCacheKey(const SpecKey& key) {
  KeyBuffer& buffer = ThreadKeyBuffer();
  ++buffer.generation;
  std::string& text = buffer.text;
  text.clear();
  for (std::string_view part : {key.kind, key.version, key.name_space}) {
    AppendKeyString(text, part);
  }
  text.push_back(key.admin_access_allowed ? 'A' : 'a');
  text.append(key.spec);  // at most max_spec_bytes (Accepts): the buffer stays small
  return text;
}

// The key text of `miss`: the thread's buffer when it still holds it (the same thread, and
// no key written since the lookup), else written again.
const std::string& MissKeyText(const SpecKey& key, const void* buffer, uint64_t generation) {
  KeyBuffer& own = ThreadKeyBuffer();
  if (buffer == &own && generation == own.generation) return own.text;
  return SpecCacheKey(key);
}

// A decoded claim holds its strings (names, expressions, parameters), vectors and optional
// fields: about 5 bytes of heap per byte of JSON in the corpus's claims and templates
// (spec_memo_test measures it); 8 leaves room for denser shapes.
constexpr size_t kDecodedBytesPerSpecByte = 8;

}  // namespace

size_t ApproximateBytes(const SpecFindings& findings, size_t spec_bytes) {
  const size_t verdict = findings.satisfiability == nullptr
                             ? 0
                             : sizeof(RememberedVerdict) + RememberedVerdict::kMaxBytes;
  return sizeof(SpecFindings) + ApproximateBytes(findings.validation) +
         ApproximateBytes(findings.schema) + kDecodedBytesPerSpecByte * spec_bytes + verdict;
}

SpecMemo::SpecMemo(SpecMemoOptions options)
    : options_(options),
      cache_(CacheLimits{.max_entries = options.entries, .max_bytes = options.max_bytes}),
      seen_(options.entries > 0 && options.sightings > 0
                ? std::make_unique<SightingFilter>(options.sightings)
                : nullptr) {}

std::shared_ptr<const SpecFindings> SpecMemo::Find(const SpecKey& key,
                                                   const void* schema_token) const {
  return Look(key, schema_token).found();
}

SpecLookup SpecMemo::Look(const SpecKey& key, const void* schema_token) const {
  SpecLookup lookup;
  lookup.memo_ = this;
  lookup.key_ = key;
  if (!Accepts(key)) return lookup;
  const CacheKey hashed(SpecCacheKey(key));
  std::shared_ptr<const SpecFindings> found = cache_.Find(hashed);
  if (found == nullptr || found->schema_token.get() != schema_token) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    const KeyBuffer& buffer = ThreadKeyBuffer();
    lookup.key_buffer_ = &buffer;
    lookup.key_generation_ = buffer.generation;
    // An entry made under another schema was kept before: its key is not new.
    if (found == nullptr && seen_ != nullptr && !seen_->Saw(hashed.hash())) {
      lookup.keeps_ = false;
      first_sights_.fetch_add(1, std::memory_order_relaxed);
    }
    lookup.hashed_ = hashed.hashed();
    if (lookup.hashed_) lookup.hash_ = hashed.hash();
    return lookup;
  }
  hits_.fetch_add(1, std::memory_order_relaxed);
  lookup.found_ = std::move(found);
  return lookup;
}

void SpecMemo::Insert(const SpecKey& key, std::shared_ptr<const SpecFindings> findings) {
  if (!Accepts(key) || findings == nullptr) return;
  const size_t bytes = ApproximateBytes(*findings, key.spec.size());
  cache_.Replace(SpecCacheKey(key), std::move(findings), bytes);
}

void SpecMemo::Insert(const SpecLookup& miss, std::shared_ptr<const SpecFindings> findings) {
  if (miss.memo_ != this) return Insert(miss.key_, std::move(findings));
  if (!Accepts(miss.key_) || findings == nullptr || !miss.keeps_) return;
  const size_t bytes = ApproximateBytes(*findings, miss.key_.spec.size());
  const std::string& text = MissKeyText(miss.key_, miss.key_buffer_, miss.key_generation_);
  cache_.Replace(miss.hashed_ ? CacheKey(text, miss.hash_) : CacheKey(text), std::move(findings),
                 bytes);
}

bool SpecLookup::MissOf(const SpecMemo& memo, const SpecKey& key) const {
  return memo_ == &memo && found_ == nullptr && key == key_;
}

SpecMemoStats SpecMemo::stats() const {
  return {.entries = size(),
          .hits = hits_.load(std::memory_order_relaxed),
          .misses = misses_.load(std::memory_order_relaxed),
          .first_sights = first_sights_.load(std::memory_order_relaxed)};
}

bool IsSpecField(std::string_view field) {
  constexpr std::string_view kSpec = "spec";
  if (field.substr(0, kSpec.size()) != kSpec) return false;
  return field.size() == kSpec.size() || field[kSpec.size()] == '.' ||
         field[kSpec.size()] == '[';
}

}  // namespace draguard::webhook
