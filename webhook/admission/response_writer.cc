#include "webhook/admission/response_writer.h"

#include "policy/common/json_text.h"

#include <cstddef>
#include <cstdint>

namespace draguard::webhook {
namespace {

void AppendKey(std::string_view key, std::string& out) {
  out += '"';
  out += key;
  out += "\":";
}

void AppendStatus(const AdmissionResponseFields& f, std::string& out) {
  out += ",\"status\":{\"metadata\":{},";
  AppendKey("status", out);
  out += f.allowed ? "\"Success\"" : "\"Failure\"";
  if (!f.message.empty()) {
    out += ',';
    AppendKey("message", out);
    AppendJsonString(f.message, out);
  }
  if (!f.reason.empty()) {
    out += ',';
    AppendKey("reason", out);
    AppendJsonString(f.reason, out);
  }
  if (!f.causes.empty()) {
    out += ",\"details\":{\"causes\":[";
    for (size_t i = 0; i < f.causes.size(); ++i) {
      if (i > 0) out += ',';
      out += "{\"reason\":";
      AppendJsonString(f.causes[i].type.empty() ? "FieldValueInvalid" : f.causes[i].type, out);
      out += ",\"message\":";
      AppendJsonString(f.causes[i].message, out);
      out += ",\"field\":";
      AppendJsonString(f.causes[i].field, out);
      out += '}';
    }
    out += "]}";
  }
  out += ",\"code\":" + std::to_string(f.code) + '}';
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  auto at = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = at(i) << 16 | (rest == 2 ? at(i + 1) << 8 : 0);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string WriteJsonPatch(const std::vector<JsonPatchOperation>& patch) {
  std::string out = "[";
  for (size_t i = 0; i < patch.size(); ++i) {
    const JsonPatchOperation& op = patch[i];
    if (i > 0) out += ',';
    out += "{\"op\":";
    AppendJsonString(op.op, out);
    if (!op.from.empty()) {
      out += ",\"from\":";
      AppendJsonString(op.from, out);
    }
    out += ",\"path\":";
    AppendJsonString(op.path, out);
    if (!op.value_json.empty()) {
      out += ",\"value\":";
      out += op.value_json;
    }
    out += '}';
  }
  out += ']';
  return out;
}

std::string WriteAdmissionReview(const AdmissionResponseFields& f) {
  // The warnings too (quoted, a comma each, an eighth more for escapes): without them the
  // response grew by reallocation and copy while they were written.
  size_t warnings = 0;
  for (const std::string& w : f.warnings) warnings += w.size() + 3;
  std::string out;
  out.reserve(256 + f.message.size() + f.patch_json.size() * 4 / 3 + warnings + warnings / 8);
  out += "{\"apiVersion\":";
  AppendJsonString(f.api_version, out);
  out += ",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":";
  AppendJsonString(f.uid, out);
  out += f.allowed ? ",\"allowed\":true" : ",\"allowed\":false";
  if (f.code != 0) AppendStatus(f, out);
  if (!f.patch_json.empty()) {
    out += ",\"patchType\":\"JSONPatch\",\"patch\":\"";
    out += Base64Encode(f.patch_json);
    out += '"';
  }
  if (!f.warnings.empty()) {
    out += ",\"warnings\":[";
    for (size_t i = 0; i < f.warnings.size(); ++i) {
      if (i > 0) out += ',';
      AppendJsonString(f.warnings[i], out);
    }
    out += ']';
  }
  out += "}}";
  return out;
}

}  // namespace draguard::webhook
