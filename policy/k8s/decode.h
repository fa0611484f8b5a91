// Decoding a file of Kubernetes manifests into the draguard object model.
//
// Decode() parses YAML or JSON (policy/k8s/document.h), expands `kind: List` and typed lists
// (`ResourceClaimList` & co., as `kubectl get --raw` returns them: items without apiVersion
// and kind inherit the list's apiVersion and item kind), and turns every
// DRA-related object into its v1-shaped model type: ResourceClaim, ResourceClaimTemplate,
// DeviceClass, ResourceSlice (resource.k8s.io v1, v1beta2, v1beta1), DeviceTaintRule
// (v1alpha3), Pods and workloads with pod templates (apps/v1, batch/v1), Nodes and Namespaces.
// Decoding is strict like the API server with kubectl's default strict field validation:
// unknown and duplicate fields and wrong types are errors (`decode.unknown-field`,
// `decode.duplicate-field`, `decode.wrong-type`); API versions the chosen release can never
// serve are errors, those a cluster may enable with --runtime-config warnings. Other
// documents are skipped silently (and counted). Helm/envsubst templates are reported once as
// info `decode.template` and not decoded.
//
// Every DecodedObject can Locate() a diagnostic: given its v1-shaped API-server field path
// (and value_offset for a position inside a string), it fills file, line and column from the
// node tree, mapping paths back to beta shapes (`requests[0].exactly.count` is
// `requests[0].count` in a v1beta1 document) and falling back to the nearest existing ancestor.
//
// Diagnostic codes (errors unless noted):
//   decode.yaml-syntax, decode.too-large, decode.too-deep, decode.too-many-nodes,
//   decode.too-many-documents      a document or object could not be read (document.h)
//   decode.unknown-field           strict decoding; a warning when !strict; suggestion given
//   decode.duplicate-field         a key repeated in one map
//   decode.wrong-type              e.g. `count: "2"`, `selectors: {}`, `enabled: yes` (a bool)
//   decode.invalid-quantity        a malformed resource.Quantity (HTTP 400 in Kubernetes)
//   decode.missing-api-version     a Pod/workload/DRA kind without apiVersion
//   decode.api-version.unknown     an API version resource.k8s.io does not have
//   decode.api-version.removed     v1alpha1-3 of the core kinds; not decoded
//   decode.api-version.deprecated  (warning) v1beta1
//   decode.api-version.beta        (warning) v1beta2, not served by default
//   decode.api-version.alpha       (warning) DeviceTaintRule v1alpha3, other alpha kinds
//   decode.api-version.not-served  a kind/version this release does not serve but another does
//                                  (DeviceTaintRule v1beta2 before 1.36, ResourcePoolStatusRequest)
//   decode.classic-dra             ResourceClass & co.; not decoded
//   decode.v1beta1-request-shape   (warning) flat request fields under resource.k8s.io/v1
//   decode.pod.removed-source-wrapper  pod resourceClaims[].source
//   decode.kind.unchecked          (info) other resource.k8s.io kinds
//   decode.template                (info) Helm/envsubst template; nothing decoded
#ifndef DRAGUARD_POLICY_K8S_DECODE_H_
#define DRAGUARD_POLICY_K8S_DECODE_H_

#include <cstddef>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/kubernetes_version.h"
#include "policy/common/source.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/document.h"
#include "policy/k8s/field_index.h"
#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"
#include "policy/k8s/workload.h"

namespace draguard::k8s {

struct DecodeOptions {
  ParseOptions parse;
  // Report unknown fields as errors (kubectl's default `--validate=strict`). When false they
  // are warnings, as the API server's "warn" mode reports them.
  bool strict = true;
  // Skip template detection (inputs known to be rendered already).
  bool detect_templates = true;
  // The release whose API server the apiVersion verdicts describe (served, not served, alpha,
  // beta, deprecated: policy/common/release.h). Every caller that knows the release it
  // checks for sets it; the decoded objects do not depend on it.
  KubernetesVersion version = kDefaultKubernetesVersion;
  // Keep what DecodedObject::Locate needs after decoding (a FieldIndex per object). Readers
  // that move the objects out and never locate a finding in them later (inventory files) turn
  // it off: decoding's own findings are still located; the index is built only for objects
  // that have some.
  bool keep_locations = true;
};

// The decoded model object; std::monostate never appears in a DecodeResult.
using ObjectVariant = std::variant<std::monostate, ResourceClaim, ResourceClaimTemplate,
                                   DeviceClass, ResourceSlice, DeviceTaintRule, Workload, Node,
                                   Namespace>;

class DecodedObject {
 public:
  std::string api_version;  // as written, e.g. "resource.k8s.io/v1beta1"
  std::string kind;         // as written, e.g. "ResourceClaim"
  ObjectRef ref;            // apiVersion, kind, namespace, name
  size_t document_index = 0;  // 0-based document in the file (List items share theirs)
  ObjectVariant object;

  // Where the object starts in its file (its first key).
  SourcePosition position() const { return position_; }

  // Fills d.file, d.position and (when empty) d.object from d.field and d.value_offset. A path
  // that does not exist in the document locates its nearest existing ancestor; a value offset
  // is applied only when the full path exists and names a scalar.
  void Locate(Diagnostic& d) const;

  // The position of a field path (same rules as Locate, without a value offset).
  SourcePosition PositionOf(const std::string& field) const;

  // The text the object was decoded from: the whole input, or for a streamed input
  // (DecodeStream) its own document.
  const SourceText& source() const { return *source_; }

  // Internal: set by Decode. Keeps the source and (with `index`) a FieldIndex of `root`, not
  // the tree; without the index Locate and PositionOf give no positions.
  void Bind(std::shared_ptr<const SourceText> source, const DocNode& root, bool index = true);

 private:
  std::shared_ptr<const SourceText> source_;
  std::shared_ptr<const FieldIndex> index_;  // shared by copies of the object
  SourcePosition position_;
};

struct DecodeResult {
  std::vector<DecodedObject> objects;
  // Decoding diagnostics, already located (file, line, column, object filled).
  Diagnostics diagnostics;
  size_t documents = 0;  // non-empty documents seen (List items not counted separately)
  size_t skipped = 0;    // documents or List items that were not DRA-related
  bool is_template = false;  // `decode.template` was reported; nothing was decoded
  // Errors of the parser (document.h: syntax, limits), which are the first `read_errors`
  // diagnostics: the documents they concern were not decoded, so objects are missing.
  size_t read_errors = 0;
  // DecodeStream only: the text of the lines `diagnostics` point at (file line -> line), as
  // the documents holding them are not kept.
  std::map<int, std::string> lines;
};

// Decodes every object in `source`. Never throws; problems with the input are diagnostics.
// Thread-compatible; the result keeps its own copy of the source text for Locate().
DecodeResult Decode(const SourceText& source, const DecodeOptions& options = {});

// Decoding a stream (a file, stdin) with one document's text in memory at a time
// (document.h: DocumentReader).
struct StreamOptions {
  // A document is held whole while it is parsed: one larger than this ends the stream
  // (DecodeStream's `end` is then kTooLarge). The API server's limit per object is
  // ParseOptions::max_bytes; this only bounds memory (a `kind: List` is one document).
  size_t max_document_bytes = size_t{1} << 30;
  // Called with each piece of the stream after it is decoded (may be empty): lint scans its
  // comments for suppressions and keeps the lines its findings point at.
  std::function<void(const SourceText&)> on_piece;
  // Called with each decoded object, in order (may be empty); an object it returns false for
  // is not kept in the result (lint lists it, and drops a workload without claims, which no
  // later stage reads).
  std::function<bool(const DecodedObject&)> on_object;
  // Called with the first line of each piece before it is parsed (may be empty); a piece it
  // returns false for is neither parsed nor handed to on_piece (lint's second pass parses
  // only the documents that hold objects it checks). Its documents then count toward no
  // limit and take no document index.
  std::function<bool(int first_line)> parse_piece;
};

// What Decode(SourceText(name, whole text)) gives, read from `in` one document at a time:
// the objects keep the text of their own document, not the whole input, and documents that
// hold nothing to check are dropped as soon as they are decoded. `end` (may be null) tells
// how the stream ended: kEnd, or kTooLarge / kReadError (then the result is incomplete and
// the caller must report the input as unreadable).
DecodeResult DecodeStream(std::istream& in, const std::string& name, const DecodeOptions& options,
                          const StreamOptions& stream = {},
                          DocumentReader::Result* end = nullptr);

// Decodes one ResourceClaim, ResourceClaimTemplate or DeviceClass whose kind and
// resource.k8s.io version ("v1", "v1beta2", "v1beta1") are already known, from a tree that
// was parsed elsewhere (the webhook builds it straight from the AdmissionReview's JSON).
// Returns std::monostate for any other kind. Findings are added to `diagnostics` with field
// paths only (the tree carries no positions). Unknown fields are reported as
// DecodeOptions::strict says, or not looked for at all with UnknownFields::kIgnore (the
// webhook: the API server has decoded the object already and added fields of its own).
// With DecodeScope::kWithoutSpec the `spec` of a ResourceClaim or ResourceClaimTemplate is
// neither read nor reported (the result's spec is empty): for the webhook's spec memo, which
// remembers the findings about a spec by its text and decodes only the rest of the object.
enum class UnknownFields { kError, kWarning, kIgnore };
enum class DecodeScope { kAll, kWithoutSpec };
ObjectVariant DecodeResourceTree(const DocNode& root, std::string_view kind,
                                 std::string_view version, Diagnostics& diagnostics,
                                 UnknownFields unknown_fields = UnknownFields::kError,
                                 DecodeScope scope = DecodeScope::kAll);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_DECODE_H_
