#include "policy/k8s/pool_status_request.h"

#include <string>
#include <string_view>
#include <vector>

#include "policy/common/name_validation.h"

namespace draguard::k8s {
namespace {

std::string Quoted(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Lower(std::string_view value) {
  std::string out(value);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// A string field `spec.<key>`; reports a wrong type. Null and absent are nullptr.
const DocNode* StringField(const DocNode& spec, std::string_view key, Diagnostics& d) {
  const DocNode* v = spec.Find(key);
  if (v == nullptr || v->kind == NodeKind::kNull) return nullptr;
  if (v->kind != NodeKind::kString) {
    const std::string path = "spec." + std::string(key);
    d.Error("poolstatus.spec.invalid", FieldPath(path),
            path + ": Invalid value: must be a string, not " + std::string(NodeKindName(v->kind)));
    return nullptr;
  }
  return v;
}

// k8s-long-name-caseless: a DNS subdomain (253 bytes) once lower-cased.
void CheckDriver(const DocNode& spec, Diagnostics& d) {
  const FieldPath field("spec.driver");
  const DocNode* raw = spec.Find("driver");
  if (raw != nullptr && raw->kind != NodeKind::kNull && raw->kind != NodeKind::kString) {
    StringField(spec, "driver", d);  // wrong type
    return;
  }
  if (raw == nullptr || raw->kind == NodeKind::kNull || raw->text.empty()) {
    d.Error("poolstatus.driver.required", field, "spec.driver: Required value",
            "the name of the DRA driver whose pools are reported, e.g. gpu.example.com");
    return;
  }
  for (const std::string& problem : IsDNS1123Subdomain(Lower(raw->text))) {
    d.Error("poolstatus.driver.invalid", field,
            "spec.driver: Invalid value: " + Quoted(raw->text) + ": " + problem);
  }
}

// k8s-resource-pool-name: at most 253 bytes, every '/'-separated part a DNS subdomain.
void CheckPoolName(const DocNode& spec, Diagnostics& d) {
  const FieldPath field("spec.poolName");
  const DocNode* v = StringField(spec, "poolName", d);
  if (v == nullptr) return;
  if (v->text.empty()) {
    d.Error("poolstatus.pool-name.invalid", field,
            "spec.poolName: Invalid value: \"\": must not be empty when set",
            "leave poolName out to report every pool of the driver");
    return;
  }
  if (v->text.size() > kDNSSubdomainMaxLength) {
    d.Error("poolstatus.pool-name.invalid", field,
            "spec.poolName: Too long: may not be more than 253 bytes");
  }
  for (std::string_view part : SplitString(v->text, '/')) {
    for (const std::string& problem : IsDNS1123Subdomain(part)) {
      d.Error("poolstatus.pool-name.invalid", field,
              "spec.poolName: Invalid value: " + Quoted(v->text) + ": " + problem);
    }
  }
}

void CheckLimit(const DocNode& spec, Diagnostics& d) {
  const FieldPath field("spec.limit");
  const DocNode* v = spec.Find("limit");
  if (v == nullptr || v->kind == NodeKind::kNull) return;  // defaulted to 100
  if (v->kind != NodeKind::kInt) {
    d.Error("poolstatus.spec.invalid", field,
            "spec.limit: Invalid value: must be an integer, not " +
                std::string(NodeKindName(v->kind)));
    return;
  }
  if (v->int_value < kPoolStatusLimitMin) {
    d.Error("poolstatus.limit.out-of-range", field,
            "spec.limit: Invalid value: " + std::to_string(v->int_value) +
                ": must be greater than or equal to 1",
            "limit: 1 (or leave it out: the default is 100)");
  } else if (v->int_value > kPoolStatusLimitMax) {
    d.Error("poolstatus.limit.out-of-range", field,
            "spec.limit: Invalid value: " + std::to_string(v->int_value) +
                ": must be less than or equal to 1000",
            "limit: 1000");
  }
}

}  // namespace

void CheckResourcePoolStatusRequestSpec(const DocNode& root, Diagnostics& diagnostics) {
  const DocNode* spec = root.Find("spec");
  if (spec == nullptr || spec->kind == NodeKind::kNull) {
    diagnostics.Error("poolstatus.driver.required", FieldPath("spec.driver"),
                      "spec.driver: Required value",
                      "the name of the DRA driver whose pools are reported, e.g. "
                      "gpu.example.com");
    return;
  }
  if (spec->kind != NodeKind::kMap) {
    diagnostics.Error("poolstatus.spec.invalid", FieldPath("spec"),
                      "spec: Invalid value: must be an object, not " +
                          std::string(NodeKindName(spec->kind)));
    return;
  }
  CheckDriver(*spec, diagnostics);
  CheckPoolName(*spec, diagnostics);
  CheckLimit(*spec, diagnostics);
}

}  // namespace draguard::k8s
