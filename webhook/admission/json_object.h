// The object of an AdmissionReview, decoded into the draguard model on the webhook's hot path.
//
// `draguard lint` decodes YAML through yaml-cpp (policy/k8s/decode.h), which keeps positions
// for file:line:col diagnostics. An AdmissionReview's object is JSON, its diagnostics carry
// field paths only, and yaml-cpp plus position bookkeeping cost about 80% of a request. Here a
// hand-written JSON reader builds the same DocNode tree directly (scalar kinds as the YAML
// decoder resolves JSON scalars; offsets are not kept), and the k8s decoders for the kinds the
// webhook checks read it, so both routes produce the same model and the same findings; the
// corpus test (tests/webhook/admission/corpus_test.cc) checks that they agree.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_JSON_OBJECT_H_
#define DRAGUARD_WEBHOOK_ADMISSION_JSON_OBJECT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/k8s/document.h"

namespace draguard::webhook {

struct JsonObjectOptions {
  // Deeper nesting is refused (the review scanner bounds it earlier; this keeps the tree's
  // recursive destruction safe on its own).
  size_t max_depth = 256;
};

class JsonLexer;

// The root object's `spec` of a ResourceClaim or ResourceClaimTemplate in resource.k8s.io/v1
// decoded straight into the model (direct_decode.h) instead of read into its tree node, which
// stays null (the review scanner's CompleteObjectSpec, ScanOptions::direct_object_spec).
struct DirectSpec {
  bool decoded = false;
  std::string kind;                     // the kind it was decoded as
  k8s::ResourceClaimSpec spec;          // the claim's spec, or the template's spec.spec
  k8s::ObjectMeta template_metadata;    // the template's spec.metadata
};

// The root object's `metadata` decoded straight into the model (direct_decode.h) by
// ReadJsonTree's `direct` argument. When `decoded`, the root's (only) metadata member is in
// the tree as an empty object and `meta` holds what the k8s decoders would have read from its
// full tree; otherwise the tree holds it as ever and `meta` is default.
struct DirectMetadata {
  bool decoded = false;
  k8s::ObjectMeta meta;
};

// Where ReadJsonTree left the root object's `spec` unread (its `defer` argument).
struct DeferredSpec {
  bool deferred = false;
  size_t begin = 0;  // the byte of the lexer's text where the spec's value starts
  size_t depth = 0;  // the collections around the value
  size_t entry = 0;  // its member's index in the root's entries
  // The members an earlier spec node held, kept while the spec is unread, so that reading a
  // spec of the usual shape later reuses their storage as ReadJsonTree reuses a tree's.
  std::vector<k8s::MapEntry> storage;
};

// Reads one JSON value at `lexer`'s position (after any space) into `root`, leaving the lexer
// right after it: the reader behind ParseJsonTree, for the review scanner, which builds
// request.object's tree during its one pass over the review. `root` may be a default DocNode
// or the tree of an earlier call, whose strings and vectors are reused (every field is set
// again). `depth` is the nesting around the value; collections deeper than `max_depth` in all
// are refused. False on invalid JSON (lexer.pos() is near the offending byte; `root` then holds
// a partial tree). When `root_spec` is given, it is set to the exact JSON text of the root
// object's `spec` member (a slice of the lexer's text), or left empty when the root is not an
// object or has no `spec` or has more than one: what the spec memo (spec_memo.h) keys on.
//
// With `defer`, the root's first `spec` member, when it is an object, is not read: only its
// end is found, by its brackets and strings alone (CollectionEnd, collection_end.h: nothing
// else is checked), and its node is
// left null; *defer says where it is, for ReadDeferredSpec. Why: the spec memo (spec_memo.h)
// answers for a spec whose exact text it has seen, checked and remembered, so the text of a
// remembered spec needs neither a tree nor a check; any other spec is read afterwards by
// ReadDeferredSpec, which finds what reading it here would have found.
//
// With `direct`, the root's `metadata` member is first decoded by DecodeObjectMetaDirect
// (direct_decode.h); when that gives up, or the root has more than one `metadata`, it is read
// into the tree instead (see DirectMetadata). The result is otherwise the same, errors too.
bool ReadJsonTree(JsonLexer& lexer, size_t depth, size_t max_depth, k8s::DocNode& root,
                  std::string_view* root_spec = nullptr, DeferredSpec* defer = nullptr,
                  DirectMetadata* direct = nullptr);

// Reads the spec that ReadJsonTree deferred into `root`'s spec node (or only checks it when
// `root` is null), with `lexer` over the same text: the same result and, when the spec is not
// valid JSON, the same error and lexer position as ReadJsonTree would have given reading it.
// `spec.storage` goes to the node.
bool ReadDeferredSpec(JsonLexer& lexer, size_t max_depth, DeferredSpec& spec,
                      k8s::DocNode* root);

// Reads the JSON value at `lexer`'s position, `depth` collections deep, into `node` as
// ReadJsonTree reads a member's value (no root roles).
bool ReadJsonValue(JsonLexer& lexer, size_t depth, size_t max_depth, k8s::DocNode& node);

// The DocNode tree of a JSON text; nullopt when it is not valid JSON (RFC 8259, with
// JsonLexer's rules for strings) or too deep. Never throws except std::bad_alloc.
std::optional<k8s::DocNode> ParseJsonTree(std::string_view json,
                                          const JsonObjectOptions& options = {});

// Decodes `json`, an object of `kind` (ResourceClaim, ResourceClaimTemplate or DeviceClass) in
// resource.k8s.io `version` (v1, v1beta2, v1beta1), non-strictly: the API server has decoded
// it already and added fields of its own. Decoding findings other than unknown fields go to
// `out`. Returns std::monostate for invalid JSON (with a `decode.json-syntax` error) or another
// kind.
k8s::ObjectVariant DecodeAdmissionObject(std::string_view json, std::string_view kind,
                                         std::string_view version, Diagnostics& out);

// The same for a tree already read (ParseJsonTree, ReadJsonTree); a root that is not an
// object gets the `webhook.object.invalid` error. `scope` as k8s::DecodeResourceTree's.
// `metadata`, when given and decoded, is the metadata ReadJsonTree decoded directly into it
// for this tree (whose metadata is then an empty object): the result takes it, by a move
// (a copy cost 2 k instructions a request), and leaves `metadata` not decoded. So a tree
// read with `direct` is decoded once. `spec` likewise: when decoded for `kind`, the tree's
// spec is null and, with DecodeScope::kAll, the result takes it.
k8s::ObjectVariant DecodeAdmissionTree(const k8s::DocNode& root, std::string_view kind,
                                       std::string_view version, Diagnostics& out,
                                       k8s::DecodeScope scope = k8s::DecodeScope::kAll,
                                       DirectMetadata* metadata = nullptr,
                                       DirectSpec* spec = nullptr);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_JSON_OBJECT_H_
