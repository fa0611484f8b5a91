// Decode(): template detection, parsing, `kind: List` and typed-list expansion, API-version triage and
// dispatch to the per-kind decoders; every diagnostic leaves located.
//
// Version policy (Kubernetes 1.34/1.35): what the API server of the chosen release can never
// serve is an error, what a cluster may enable is a warning. resource.k8s.io/v1 is served by
// default; v1beta1 (deprecated since 1.33) and v1beta2 are decoded and converted but draw a
// warning because they must be enabled with --runtime-config; v1alpha1-3 of the core kinds
// were removed (no --runtime-config brings them back: an error, not decoded); classic-DRA
// kinds (ResourceClass, ...) were removed with v1alpha2 (an error); DeviceTaintRule is only
// served as v1alpha3 behind a feature gate in 1.34/1.35 (a warning; the gate is checked in
// validation), and its v1beta2 and v1 forms, from later releases, are errors but decoded.
#include "policy/k8s/decode.h"

#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/common/release.h"
#include "policy/k8s/decode_internal.h"
#include "policy/k8s/field_reader.h"
#include "policy/k8s/pool_status_request.h"
#include "policy/k8s/served_version.h"
#include "policy/k8s/yaml_lines.h"

namespace draguard::k8s {
namespace {

constexpr std::string_view kCoreKinds[] = {"ResourceClaim", "ResourceClaimTemplate",
                                           "DeviceClass", "ResourceSlice"};
constexpr std::string_view kClassicKinds[] = {"ResourceClass", "ResourceClaimParameters",
                                              "ResourceClassParameters", "PodSchedulingContext",
                                              "PodScheduling"};

template <size_t N>
bool Contains(const std::string_view (&list)[N], std::string_view s) {
  for (std::string_view x : list) {
    if (x == s) return true;
  }
  return false;
}

bool IsWorkloadKind(std::string_view group, std::string_view kind) {
  if (group.empty()) return kind == "Pod" || kind == "PodTemplate" ||
                            kind == "ReplicationController";
  if (group == "apps") {
    return kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" ||
           kind == "ReplicaSet";
  }
  return group == "batch" && (kind == "Job" || kind == "CronJob");
}

bool IsIdentChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `line` holds `{{` or (unless `braces_only`) `${NAME` or `@@NAME@@`; sets *column
// to where.
bool HasPlaceholder(std::string_view line, bool braces_only, size_t* column) {
  for (size_t i = 0; i < line.size(); ++i) {
    const std::string_view rest = line.substr(i);
    bool hit = rest.starts_with("{{");
    if (braces_only && !hit) continue;
    hit = hit || (rest.starts_with("${") && rest.size() > 2 &&
                  (IsIdentChar(rest[2]) || rest[2] == '{'));
    if (!hit && rest.starts_with("@@")) {
      size_t j = 2;
      while (j < rest.size() && IsIdentChar(rest[j])) ++j;
      hit = j > 2 && rest.substr(j).starts_with("@@");
    }
    if (hit) {
      *column = i;
      return true;
    }
  }
  return false;
}

// Whether the text holds template placeholders outside comments. Inside the content of
// block scalars only Helm's `{{` counts: a rendered manifest may embed a shell script that
// uses ${VAR}, while Helm expands `{{ }}` everywhere. Sets *where to the placeholder's offset.
bool LooksLikeTemplate(const SourceText& source, size_t* where) {
  // Every placeholder starts with one of these pairs: text without any (nearly every
  // manifest) needs no line-by-line scan, which was 5% of a lint run's instructions.
  const std::string_view text = source.text();
  if (text.find("{{") == std::string_view::npos && text.find("${") == std::string_view::npos &&
      text.find("@@") == std::string_view::npos) {
    return false;
  }
  const std::vector<YamlLine> lines = ScanYamlLines(source);
  for (int n = source.first_line(); n <= source.last_line(); ++n) {
    const YamlLine& info = lines[static_cast<size_t>(n - source.first_line())];
    const std::string_view line = source.Line(n).substr(0, info.comment);
    size_t column = 0;
    if (HasPlaceholder(line, info.block_content, &column)) {
      *where = source.OffsetOf({n, 1}) + column;
      return true;
    }
  }
  return false;
}

std::string ScalarText(const DocNode& root, std::string_view key) {
  const DocNode* n = root.Find(key);
  return n != nullptr && n->kind == NodeKind::kString ? n->text : std::string();
}

// The apiVersion and kind an object has, or, for the items of a typed list, inherits.
struct TypeMeta {
  std::string api_version;
  std::string kind;
};

// The item type of a typed list (`kind: ResourceClaimList` -> ResourceClaim of the list's
// apiVersion), as `kubectl get --raw` and client libraries return lists: their items carry
// no apiVersion or kind. `kind: List` (v1) has no item type: its items name their own.
TypeMeta ItemTypeOf(const DocNode& list) {
  const std::string kind = ScalarText(list, "kind");
  if (kind == "List" || !kind.ends_with("List")) return {};
  return {ScalarText(list, "apiVersion"), kind.substr(0, kind.size() - 4)};
}

class Decoder {
 public:
  Decoder(const SourceText& source, const DecodeOptions& options, const Release& release)
      : options_(options),
        release_(release),
        source_(std::make_shared<const SourceText>(source)) {}

  DecodeResult Run();
  // Decodes the stream piece by piece (DecodeStream).
  DecodeResult RunStream(DocumentReader& reader, const StreamOptions& stream,
                         DocumentReader::Result* end);

 private:
  // Copies into result_.lines the lines of the current source that diagnostics[from..] point at.
  void KeepLines(const Diagnostics& diagnostics, size_t from);
  // Reports the template at `where` in the current source: the result is that info alone.
  void ReportTemplate(size_t where);
  // The parser's problems first (DecodeResult::read_errors), then the objects' own.
  DecodeResult Finish(Diagnostics& read);
  void DecodeDocument(Document& doc);
  // `list` holds the apiVersion and kind of the items of a typed list (`ResourceClaimList`),
  // which the API server leaves out of each item; empty outside typed lists.
  void DecodeRoot(const DocNode& root, size_t doc_index, const TypeMeta& list = {});
  // Decodes a resource.k8s.io object; returns false when it is not decoded.
  bool DecodeResource(const DocNode& root, std::string_view version, std::string_view kind,
                      DecodeContext& ctx, ObjectVariant* out);
  void Emit(DecodedObject& object, const DocNode& root, Diagnostics& diags);

  const DecodeOptions& options_;
  const Release& release_;  // whose served versions the apiVersion warnings describe
  std::shared_ptr<const SourceText> source_;
  DecodeResult result_;
  const std::function<bool(const DecodedObject&)>* keep_ = nullptr;  // StreamOptions::on_object
  std::vector<DeclaredKeys> spare_keys_;  // DecodeContext::spare_keys
  bool next_line_pending_ = false;  // result_.lines wants the next piece's first line
};

void Decoder::ReportTemplate(size_t where) {
  result_ = DecodeResult();
  Diagnostic& d = result_.diagnostics.Info(
      "decode.template", FieldPath(),
      "this file is a template (Helm \"{{ }}\", envsubst \"${VAR}\" or \"@@VAR@@\"); it is "
      "not YAML until rendered, so it was not checked",
      "render it first (helm template, envsubst) and lint the output");
  d.file = source_->name();
  d.position = source_->PositionOf(where);
  result_.is_template = true;
}

// A position at the very end of a piece that ends with a newline is on the next piece's first
// line (the `---` line): that line is taken from the next piece, or is empty at the end.
void Decoder::KeepLines(const Diagnostics& diagnostics, size_t from) {
  const std::vector<Diagnostic>& items = diagnostics.items();
  const int last = source_->text().ends_with('\n') ? source_->last_line() - 1
                                                      : source_->last_line();
  for (size_t i = from; i < items.size(); ++i) {
    const int line = items[i].position.line;
    if (line >= source_->first_line() && line <= last) {
      result_.lines.try_emplace(line, source_->Line(line));
    } else if (line == last + 1) {
      result_.lines.try_emplace(line, "");  // replaced by the next piece's first line
      next_line_pending_ = true;
    }
  }
}

DecodeResult Decoder::Finish(Diagnostics& read) {
  Diagnostics decoded;
  std::swap(decoded, result_.diagnostics);
  for (Diagnostic& d : read.mutable_items()) {
    if (d.is_error()) ++result_.read_errors;
    d.file = source_->name();
    result_.diagnostics.Add(std::move(d));
  }
  for (Diagnostic& d : decoded.mutable_items()) result_.diagnostics.Add(std::move(d));
  return std::move(result_);
}

DecodeResult Decoder::Run() {
  size_t where = 0;
  if (options_.detect_templates && LooksLikeTemplate(*source_, &where)) {
    ReportTemplate(where);
    return std::move(result_);
  }
  // Each document is decoded as soon as it is parsed and its tree dropped: objects keep a
  // FieldIndex, not the tree.
  Diagnostics read = ForEachDocument(*source_, options_.parse,
                                     [&](Document& doc) { DecodeDocument(doc); });
  return Finish(read);
}

// The same as Run over the pieces of a stream: each piece is the current source while it is
// decoded, and objects keep their own piece. After a syntax error (the parser stops) or a
// template (nothing is decoded), pieces are still read: a later placeholder makes the whole
// input a template, as Run decides from the whole text, and `on_piece` sees every piece.
DecodeResult Decoder::RunStream(DocumentReader& reader, const StreamOptions& stream,
                                DocumentReader::Result* end) {
  if (stream.on_object) keep_ = &stream.on_object;
  Diagnostics read;
  DocumentStreamState state;
  SourceText piece;
  for (;;) {
    *end = reader.Next(&piece);
    if (*end != DocumentReader::Result::kPiece) break;
    if (stream.parse_piece && !stream.parse_piece(piece.first_line())) continue;
    source_ = std::make_shared<const SourceText>(piece);
    if (next_line_pending_) {
      result_.lines[source_->first_line()] = std::string(source_->Line(source_->first_line()));
      next_line_pending_ = false;
    }
    size_t where = 0;
    if (!result_.is_template && options_.detect_templates &&
        LooksLikeTemplate(*source_, &where)) {
      ReportTemplate(where);
      read = Diagnostics();
    }
    const size_t read_before = read.size();
    const size_t decoded_before = result_.is_template ? 0 : result_.diagnostics.size();
    if (!result_.is_template) {
      ForEachDocumentInPiece(*source_, options_.parse, state, read,
                             [&](Document& doc) { DecodeDocument(doc); });
    }
    KeepLines(read, read_before);
    KeepLines(result_.diagnostics, decoded_before);
    if (stream.on_piece) stream.on_piece(*source_);
  }
  if (result_.is_template) return std::move(result_);
  return Finish(read);
}

void Decoder::DecodeDocument(Document& doc) {
  if (doc.empty || doc.root.kind == NodeKind::kNull) return;
  ++result_.documents;
  // The tree is read in place, not kept: the parser builds the next document's in it.
  const DocNode& root = doc.root;
  const DocNode* items = root.Find("items");
  const std::string kind = ScalarText(root, "kind");
  if (kind.ends_with("List") && items != nullptr &&
      items->kind == NodeKind::kSequence) {
    const TypeMeta item_type = ItemTypeOf(root);
    for (const DocNode& item : items->items) DecodeRoot(item, doc.index, item_type);
    return;
  }
  DecodeRoot(root, doc.index);
}

void Decoder::DecodeRoot(const DocNode& root, size_t doc_index, const TypeMeta& list) {
  if (root.kind != NodeKind::kMap) {
    ++result_.skipped;
    return;
  }
  DecodedObject object;
  object.api_version = ScalarText(root, "apiVersion");
  object.kind = ScalarText(root, "kind");
  if (object.api_version.empty()) object.api_version = list.api_version;
  if (object.kind.empty()) object.kind = list.kind;
  object.document_index = doc_index;
  const std::string_view api = object.api_version;
  const size_t slash = api.find('/');
  const std::string_view group = slash == std::string_view::npos ? "" : api.substr(0, slash);
  const std::string_view version = slash == std::string_view::npos ? api : api.substr(slash + 1);
  Diagnostics diags;
  DecodeContext ctx{&diags, options_.strict ? UnknownFields::kError : UnknownFields::kWarning,
                    DecodeScope::kAll, options_.version, &spare_keys_};
  bool decoded = false;
  const bool dra = group == kResourceGroup;
  if (dra) {
    decoded = DecodeResource(root, version, object.kind, ctx, &object.object);
  } else if (IsWorkloadKind(group, object.kind) && !version.empty()) {
    Workload w;
    decoded = internal::DecodeWorkload(root, object.kind, ctx, &w);
    w.api_version = object.api_version;
    object.object = std::move(w);
  } else if (group.empty() && version == "v1" && object.kind == "Node") {
    object.object = internal::DecodeNode(root, ctx);
    decoded = true;
  } else if (group.empty() && version == "v1" && object.kind == "Namespace") {
    object.object = internal::DecodeNamespace(root, ctx);
    decoded = true;
  } else if (api.empty() && (IsWorkloadKind("", object.kind) ||
                             IsWorkloadKind("apps", object.kind) ||
                             Contains(kCoreKinds, object.kind))) {
    diags.Error("decode.missing-api-version", FieldPath("kind"),
                "the object has no apiVersion; kubectl and the API server reject it",
                root.Find("apiversion") ? "write the key as \"apiVersion\" (capital V)"
                                        : "add \"apiVersion:\" (e.g. v1 for a Pod)");
  }
  if (!decoded && diags.empty()) {
    ++result_.skipped;
    return;
  }
  object.Bind(source_, root, options_.keep_locations || !diags.empty());
  Emit(object, root, diags);
  if (decoded && (keep_ == nullptr || (*keep_)(object))) result_.objects.push_back(std::move(object));
}

void Decoder::Emit(DecodedObject& object, const DocNode& root, Diagnostics& diags) {
  const DocNode* meta = root.Find("metadata");
  object.ref.api_version = object.api_version;
  object.ref.kind = object.kind;
  if (meta != nullptr) {
    object.ref.name = ScalarText(*meta, "name");
    object.ref.name_space = ScalarText(*meta, "namespace");
  }
  for (Diagnostic& d : diags.mutable_items()) {
    object.Locate(d);
    result_.diagnostics.Add(std::move(d));
  }
}

bool Decoder::DecodeResource(const DocNode& root, std::string_view version,
                             std::string_view kind, DecodeContext& ctx, ObjectVariant* out) {
  Diagnostics& diags = *ctx.diagnostics;
  const FieldPath api_path("apiVersion");
  if (Contains(kClassicKinds, kind)) {
    diags.Error("decode.classic-dra", FieldPath("kind"),
                std::string(kind) + " belongs to classic DRA (resource.k8s.io/v1alpha1-2), "
                "which was removed in Kubernetes 1.31; the API server rejects it and it was "
                "not checked",
                "use structured parameters: a DeviceClass with CEL selectors and "
                "ResourceClaims in resource.k8s.io/v1");
    return false;
  }
  if (kind == "DeviceTaintRule") {
    if (!ReportDeviceTaintRuleVersion(release_, version, diags)) return false;
    DeviceTaintRule rule = internal::DecodeDeviceTaintRule(root, ctx);
    rule.source_api_version = std::string(kResourceGroup) + "/" + std::string(version);
    *out = std::move(rule);
    return true;
  }
  if (!Contains(kCoreKinds, kind) && ReportUncheckedKindVersion(release_, kind, version, diags)) {
    if (kind == "ResourcePoolStatusRequest" && release_.Served(kind, version) != nullptr) {
      CheckResourcePoolStatusRequestSpec(root, diags);
    }
    return false;
  }
  if (!Contains(kCoreKinds, kind) && version.starts_with("v1alpha")) {
    diags.Warning("decode.api-version.alpha", api_path,
                  "resource.k8s.io/" + std::string(version) + " " + std::string(kind) +
                      " is an alpha API: the API server serves it only where the alpha API "
                      "and its feature gate are enabled; it was not checked",
                  "");
    return false;
  }
  if (!Contains(kCoreKinds, kind)) {
    diags.Info("decode.kind.unchecked", FieldPath("kind"),
               "resource.k8s.io kind \"" + std::string(kind) + "\" is not checked by draguard");
    return false;
  }
  if (version.starts_with("v1alpha")) {
    diags.Error("decode.api-version.removed", api_path,
                "resource.k8s.io/" + std::string(version) + " " + std::string(kind) +
                    " is no longer served (v1alpha1-3 were removed by Kubernetes 1.34, and no "
                    "--runtime-config brings them back); the API server rejects it and it was "
                    "not checked",
                "apiVersion: resource.k8s.io/v1 (requests need the \"exactly:\" form)");
    return false;
  }
  if (version == "v1beta1" || version == "v1beta2") {
    ReportCoreKindVersion(release_, kind, version, diags);
  } else if (version != "v1") {
    diags.Error("decode.api-version.unknown", api_path,
                "resource.k8s.io/" + std::string(version) + " is not an API version of " +
                    std::string(kind),
                "apiVersion: resource.k8s.io/v1");
    return false;
  }
  const std::string source_version = std::string(kResourceGroup) + "/" + std::string(version);
  if (kind == "ResourceClaim") {
    ResourceClaim c = internal::DecodeResourceClaim(root, version, ctx);
    c.source_api_version = source_version;
    *out = std::move(c);
  } else if (kind == "ResourceClaimTemplate") {
    ResourceClaimTemplate t = internal::DecodeResourceClaimTemplate(root, version, ctx);
    t.source_api_version = source_version;
    *out = std::move(t);
  } else if (kind == "DeviceClass") {
    DeviceClass dc = internal::DecodeDeviceClass(root, ctx);
    dc.source_api_version = source_version;
    *out = std::move(dc);
  } else {
    ResourceSlice s = internal::DecodeResourceSlice(root, version, ctx);
    s.source_api_version = source_version;
    *out = std::move(s);
  }
  return true;
}

}  // namespace

DecodeResult DecodeStream(std::istream& in, const std::string& name, const DecodeOptions& options,
                          const StreamOptions& stream, DocumentReader::Result* end) {
  DocumentReader reader(in, name, stream.max_document_bytes);
  DocumentReader::Result ignored = DocumentReader::Result::kEnd;
  return Decoder(SourceText(name, ""), options, ReleaseFor(options.version))
      .RunStream(reader, stream, end != nullptr ? end : &ignored);
}

DecodeResult Decode(const SourceText& source, const DecodeOptions& options) {
  return Decoder(source, options, ReleaseFor(options.version)).Run();
}

DecodeResult DecodeForRelease(const SourceText& source, const DecodeOptions& options,
                              KubernetesVersion version) {
  DecodeOptions for_release = options;
  for_release.version = version;
  return Decoder(source, for_release, ReleaseFor(version)).Run();
}

ObjectVariant DecodeResourceTree(const DocNode& root, std::string_view kind,
                                 std::string_view version, Diagnostics& diagnostics,
                                 UnknownFields unknown_fields, DecodeScope scope) {
  DecodeContext ctx{&diagnostics, unknown_fields, scope};
  const std::string source_version = std::string(kResourceGroup) + "/" + std::string(version);
  if (kind == "ResourceClaim") {
    ResourceClaim c = internal::DecodeResourceClaim(root, version, ctx);
    c.source_api_version = source_version;
    return c;
  }
  if (kind == "ResourceClaimTemplate") {
    ResourceClaimTemplate t = internal::DecodeResourceClaimTemplate(root, version, ctx);
    t.source_api_version = source_version;
    return t;
  }
  if (kind == "DeviceClass") {
    DeviceClass d = internal::DecodeDeviceClass(root, ctx);
    d.source_api_version = source_version;
    return d;
  }
  return {};
}

}  // namespace draguard::k8s
