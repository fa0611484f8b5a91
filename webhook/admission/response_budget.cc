#include "webhook/admission/response_budget.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "policy/common/utf8.h"

namespace draguard::webhook {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";     // …

// The index of the first byte at or after `i` that is not ASCII, or text.size(). Eight bytes
// at a time: warnings are a few hundred bytes and nearly always ASCII, and a byte loop here
// and in CountRunes cost ~5k instructions per response with one warning (issue 16).
size_t SkipAscii(std::string_view text, size_t i) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  for (uint64_t word; i + sizeof(word) <= text.size(); i += sizeof(word)) {
    std::memcpy(&word, text.data() + i, sizeof(word));
    if ((word & kHighBits) != 0) break;
  }
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  return i;
}

// The index of the first byte at or after `i` that does not start a valid UTF-8 sequence
// (Utf8SequenceLength), or text.size().
size_t SkipValidUtf8(std::string_view text, size_t i) {
  for (i = SkipAscii(text, i); i < text.size(); i = SkipAscii(text, i)) {
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return i;
    i += len;
  }
  return i;
}

// `text` with every invalid UTF-8 byte replaced by U+FFFD. Valid runs are copied whole: a
// warning is a few hundred bytes, and every response with warnings passes here (appending
// byte by byte cost ~20k instructions per request, issue 16). A text that is valid already
// (nearly every one) is kept as it is, without a copy. Returns whether the text is ASCII,
// when its runes are its bytes: what ClipOwnedRunes needs to know without counting them.
bool Sanitize(std::string& text) {
  size_t i = SkipAscii(text, 0);
  if (i == text.size()) return true;
  i = SkipValidUtf8(text, i);
  if (i == text.size()) return false;
  std::string out;
  out.reserve(text.size() + kReplacement.size());
  size_t copied = 0;  // text before this byte is in `out`
  for (; i < text.size(); i = SkipValidUtf8(text, i)) {
    out.append(text, copied, i - copied);
    out += kReplacement;
    copied = ++i;
  }
  out.append(text, copied);
  text = std::move(out);
  return false;
}

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Valid UTF-8 `text` cut at the code point boundary at or before byte `at`, plus "…".
std::string CutWithEllipsis(std::string text, size_t at) {
  while (at > 0 && at < text.size() && IsContinuation(text[at])) --at;
  text.resize(at);
  text += kEllipsis;
  return text;
}

// `text` (sanitized) within `max_bytes` bytes; "…" marks a cut.
std::string ClipBytes(std::string_view text, size_t max_bytes) {
  std::string out(text);
  (void)Sanitize(out);
  if (out.size() <= max_bytes) return out;
  if (max_bytes < kEllipsis.size()) return {};
  return CutWithEllipsis(std::move(out), max_bytes - kEllipsis.size());
}

// ClipRunes of a text the caller gives up; *runes is set to the result's runes. An ASCII text
// (a warning nearly always is) is neither counted nor walked again: its runes are its bytes.
std::string ClipOwnedRunes(std::string out, size_t max_runes, size_t* runes_out = nullptr) {
  const bool ascii = Sanitize(out);
  size_t ignored = 0;
  size_t& result_runes = runes_out != nullptr ? *runes_out : ignored;
  if (ascii) {
    if (out.size() <= max_runes) {
      result_runes = out.size();
      return out;
    }
    if (max_runes == 0) {
      result_runes = 0;
      return {};
    }
    result_runes = max_runes;  // max_runes - 1 bytes and the ellipsis
    return CutWithEllipsis(std::move(out), max_runes - 1);
  }
  result_runes = CountRunes(out);
  if (result_runes <= max_runes) return out;
  if (max_runes == 0) {
    result_runes = 0;
    return {};
  }
  result_runes = max_runes;
  // The byte where rune number max_runes - 1 (0-based) starts: keep the runes before it. An
  // ASCII prefix (a warning nearly always is ASCII) is one rune a byte, found eight at a time.
  size_t at = std::min(SkipAscii(out, 0), max_runes - 1);
  size_t runes = at;
  for (; at < out.size(); ++at) {
    if (IsContinuation(out[at])) continue;
    if (runes == max_runes - 1) break;
    ++runes;
  }
  return CutWithEllipsis(std::move(out), at);
}

// "field: message (suggestion: ...)", built in one allocation.
std::string FieldMessage(const Diagnostic& d) {
  constexpr std::string_view kSeparator = ": ", kSuggestion = " (suggestion: ";
  std::string text;
  text.reserve(d.field.size() + kSeparator.size() + d.message.size() + kSuggestion.size() +
               d.suggestion.size() + 1);
  if (!d.field.empty()) {
    text += d.field;
    text += kSeparator;
  }
  text += d.message;
  if (!d.suggestion.empty()) {
    text += kSuggestion;
    text += d.suggestion;
    text += ')';
  }
  return text;
}

// Up to this many warnings, repeats are found by comparing with those before (no sets to
// build: a response has a warning or two); beyond it, through hash sets.
constexpr size_t kLinearWarnings = 16;

// A warning's text and its runes, counted once (ClipOwnedRunes) for the total's budget.
struct CountedWarnings {
  std::vector<std::string> texts;
  std::vector<size_t> runes;
};

// Most important first: the first warning of each code, then the others, each group in the
// checker's order; identical texts once (kube-apiserver drops repeats too).
CountedWarnings OrderedWarnings(const Diagnostics& diagnostics, size_t max_runes) {
  size_t count = 0;
  for (const Diagnostic& d : diagnostics) count += d.severity == Severity::kWarning;
  // Reserved whole, so that views of its strings stay valid while it fills.
  std::vector<std::string> texts;
  texts.reserve(count);
  std::vector<size_t> runes;
  runes.reserve(count);
  std::vector<bool> first_of_code;
  first_of_code.reserve(count);
  std::vector<std::string_view> codes;  // of the texts kept, in order
  codes.reserve(count);
  std::unordered_set<std::string_view> seen_texts, seen_codes;
  const bool linear = count <= kLinearWarnings;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != Severity::kWarning) continue;
    size_t text_runes = 0;
    std::string text = ClipOwnedRunes(FieldMessage(d), max_runes, &text_runes);
    bool repeated = false, new_code = true;
    if (linear) {
      for (size_t i = 0; i < texts.size() && !repeated; ++i) repeated = texts[i] == text;
      for (size_t i = 0; i < codes.size() && new_code && !repeated; ++i) {
        new_code = codes[i] != d.code;
      }
    } else {
      repeated = seen_texts.contains(text);
      new_code = !repeated && !seen_codes.contains(d.code);
    }
    if (repeated) continue;
    texts.push_back(std::move(text));
    runes.push_back(text_runes);
    codes.push_back(d.code);
    first_of_code.push_back(new_code);
    if (!linear) {
      seen_texts.insert(texts.back());
      seen_codes.insert(d.code);
    }
  }
  CountedWarnings ordered;
  ordered.texts.reserve(texts.size());
  ordered.runes.reserve(texts.size());
  for (bool first : {true, false}) {
    for (size_t i = 0; i < texts.size(); ++i) {
      if (first_of_code[i] != first) continue;
      ordered.texts.push_back(std::move(texts[i]));
      ordered.runes.push_back(runes[i]);
    }
  }
  return ordered;
}

std::string MoreWarnings(size_t n) {
  return std::to_string(n) + (n == 1 ? " more warning" : " more warnings") +
         " not shown; `draguard lint` on the object lists them all";
}

// A cause type from the apimachinery ErrorType text that starts an ErrorBody
// (field.ErrorType.String(): "Required value", "Invalid value: ...").
std::string_view TypeFromErrorBody(std::string_view message) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"Required value", "FieldValueRequired"},
      {"Invalid value", "FieldValueInvalid"},
      {"Unsupported value", "FieldValueNotSupported"},
      {"Duplicate value", "FieldValueDuplicate"},
      {"Too long", "FieldValueTooLong"},
      {"Too many", "FieldValueTooMany"},
      {"Forbidden", "FieldValueForbidden"},
      {"Internal error", "InternalError"},
      {"Not found", "FieldValueNotFound"},
  };
  for (const auto& [text, type] : kTypes) {
    if (!message.starts_with(text)) continue;
    const std::string_view rest = message.substr(text.size());
    if (rest.empty() || rest.starts_with(":")) return type;
  }
  return {};
}

}  // namespace

size_t CountRunes(std::string_view text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t ascii_end = SkipAscii(text, i);
    n += ascii_end - i;  // every ASCII byte is a rune
    i = ascii_end;
    if (i < text.size()) n += !IsContinuation(text[i++]);
  }
  return n;
}

std::string ClipRunes(std::string_view text, size_t max_runes) {
  return ClipOwnedRunes(std::string(text), max_runes);
}

std::vector<std::string> BudgetWarnings(const Diagnostics& diagnostics,
                                        const ResponseLimits& limits) {
  CountedWarnings counted = OrderedWarnings(diagnostics, limits.max_warning_runes);
  std::vector<std::string>& ordered = counted.texts;
  size_t total = 0;
  for (size_t runes : counted.runes) total += runes;
  if (total <= limits.max_warnings_runes) return std::move(ordered);
  // Not all fit: keep room for the summary (its count has at most 20 digits).
  const size_t reserve = CountRunes(MoreWarnings(0)) + 20;
  const size_t budget = limits.max_warnings_runes > reserve ? limits.max_warnings_runes - reserve
                                                            : 0;
  std::vector<std::string> kept;
  size_t used = 0;
  for (size_t i = 0; i < ordered.size(); ++i) {
    const size_t runes = counted.runes[i];
    if (used + runes > budget) continue;  // a shorter one further on may still fit
    used += runes;
    kept.push_back(std::move(ordered[i]));
  }
  kept.push_back(MoreWarnings(ordered.size() - kept.size()));
  return kept;
}

std::string_view ApiCauseType(const Diagnostic& d) {
  if (std::string_view type = TypeFromErrorBody(d.message); !type.empty()) return type;
  // CEL selectors (validateCELSelector): a compile error is field.Invalid, the cost limit
  // field.Forbidden, the length limit field.TooLong; draguard's messages carry the detail only.
  const std::string_view code = d.code;
  if (!code.starts_with("cel.")) return {};
  if (code == "cel.cost-exceeded") return "FieldValueForbidden";
  if (code == "cel.expression-too-long") return "FieldValueTooLong";
  if (std::string_view(d.message).starts_with("compilation failed")) return "FieldValueInvalid";
  return {};
}

Denial BuildDenial(std::string_view kind, std::string_view name, const Diagnostics& diagnostics,
                   const ResponseLimits& limits) {
  Denial denial;
  bool all_api_errors = true;
  std::vector<std::string> parts;
  for (const Diagnostic& d : diagnostics) {
    if (!d.is_error()) continue;
    std::string_view type = ApiCauseType(d);
    all_api_errors = all_api_errors && !type.empty();
    parts.push_back(FieldMessage(d));
    if (denial.causes.size() < limits.max_causes) {
      denial.causes.push_back({.type = std::string(type.empty() ? "FieldValueForbidden" : type),
                               .field = d.field,
                               .message = ClipBytes(d.message, limits.max_cause_message_bytes)});
    }
  }
  denial.code = all_api_errors ? 422 : 403;
  denial.reason = all_api_errors ? "Invalid" : "Forbidden";
  // `Kind.group "name" is invalid: field: message`, or `[a: x, b: y]` for several: the
  // API server's StatusError text for a field.ErrorList (NewInvalid).
  std::string head = std::string(kind) + ".resource.k8s.io \"" + std::string(name) + "\" is " +
                     (all_api_errors ? "invalid: " : "forbidden: ");
  if (parts.size() == 1) {
    denial.message = ClipBytes(head + parts.front(), limits.max_message_bytes);
    return denial;
  }
  // Room for the closing "; and N more errors (status.details.causes lists up to M)]".
  const size_t reserve = 100;
  const size_t budget = limits.max_message_bytes > reserve ? limits.max_message_bytes - reserve : 0;
  std::string message = head + "[";
  size_t shown = 0;
  for (const std::string& part : parts) {
    const std::string separator = shown > 0 ? ", " : "";
    if (message.size() + separator.size() + part.size() > budget) {
      if (shown > 0) break;
      message += ClipBytes(part, budget > message.size() ? budget - message.size() : 0);
      ++shown;
      continue;
    }
    message += separator + part;
    ++shown;
  }
  if (shown < parts.size()) {
    message += "; and " + std::to_string(parts.size() - shown) +
               " more errors (status.details.causes lists up to " +
               std::to_string(limits.max_causes) + ")";
  }
  denial.message = ClipBytes(message + "]", limits.max_message_bytes);
  return denial;
}

}  // namespace draguard::webhook
