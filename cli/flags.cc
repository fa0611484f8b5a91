#include "cli/flags.h"

#include <algorithm>
#include <charconv>

#include "policy/common/status_macros.h"
#include "policy/common/suggest.h"

namespace draguard::cli {
namespace {

// Where a flag's help text starts in Help()'s lines.
constexpr size_t kHelpColumn = 34;

bool ParseBool(std::string_view text, bool* out) {
  // Go's strconv.ParseBool, as kube flags accept.
  static constexpr std::string_view kTrue[] = {"1", "t", "T", "TRUE", "true", "True"};
  static constexpr std::string_view kFalse[] = {"0", "f", "F", "FALSE", "false", "False"};
  if (std::find(std::begin(kTrue), std::end(kTrue), text) != std::end(kTrue)) {
    *out = true;
    return true;
  }
  if (std::find(std::begin(kFalse), std::end(kFalse), text) != std::end(kFalse)) {
    *out = false;
    return true;
  }
  return false;
}

}  // namespace

void FlagSet::AddBool(std::string name, bool* target, std::string help) {
  flags_.push_back({std::move(name), Kind::kBool, target, "", std::move(help)});
}

void FlagSet::AddOptionalBool(std::string name, std::optional<bool>* target, std::string help) {
  flags_.push_back({std::move(name), Kind::kOptionalBool, target, "", std::move(help)});
}

void FlagSet::AddString(std::string name, std::string* target, std::string value_name,
                        std::string help) {
  flags_.push_back({std::move(name), Kind::kString, target, std::move(value_name),
                    std::move(help)});
}

void FlagSet::AddList(std::string name, std::vector<std::string>* target,
                      std::string value_name, std::string help) {
  flags_.push_back({std::move(name), Kind::kList, target, std::move(value_name),
                    std::move(help)});
}

void FlagSet::AddShort(char letter, std::string name) {
  shorts_.emplace_back(letter, std::move(name));
}

const FlagSet::Flag* FlagSet::Find(std::string_view name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

Status FlagSet::UnknownFlag(std::string_view name) const {
  std::vector<std::string_view> names;
  for (const Flag& flag : flags_) names.push_back(flag.name);
  std::string message = "unknown flag --" + std::string(name);
  if (auto close = ClosestMatch(name, names)) message += "; did you mean --" + *close + "?";
  return InvalidArgumentError(std::move(message));
}

Status FlagSet::Assign(const Flag& flag, std::string_view value) {
  bool parsed = false;
  switch (flag.kind) {
    case Kind::kBool:
    case Kind::kOptionalBool:
      if (!ParseBool(value, &parsed)) {
        return InvalidArgumentError("invalid value \"" + std::string(value) + "\" for --" +
                                    flag.name + ": expected true or false");
      }
      if (flag.kind == Kind::kBool) *static_cast<bool*>(flag.target) = parsed;
      else *static_cast<std::optional<bool>*>(flag.target) = parsed;
      break;
    case Kind::kString:
      *static_cast<std::string*>(flag.target) = std::string(value);
      break;
    case Kind::kList:
      static_cast<std::vector<std::string>*>(flag.target)->emplace_back(value);
      break;
  }
  return OkStatus();
}

Status FlagSet::Parse(const std::vector<std::string>& args, std::vector<std::string>* positional) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      positional->insert(positional->end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      positional->push_back(arg);
      continue;
    }
    std::string_view body = arg == "-h" ? std::string_view("help") : std::string_view(arg);
    std::string expanded;
    if (arg != "-h" && arg[1] != '-') {
      for (const auto& [letter, long_name] : shorts_) {
        if (arg[1] == letter && (arg.size() == 2 || arg[2] == '=')) {
          expanded = long_name + arg.substr(2);
          body = expanded;
        }
      }
      if (expanded.empty()) return InvalidArgumentError("unknown flag " + arg);
    } else if (arg != "-h") {
      body.remove_prefix(2);
    }
    size_t eq = body.find('=');
    std::string_view name = body.substr(0, eq);
    const Flag* flag = Find(name);
    if (flag == nullptr) return UnknownFlag(name);
    if (eq != std::string_view::npos) {
      DRAGUARD_RETURN_IF_ERROR(Assign(*flag, body.substr(eq + 1)));
    } else if (flag->kind == Kind::kBool || flag->kind == Kind::kOptionalBool) {
      DRAGUARD_RETURN_IF_ERROR(Assign(*flag, "true"));
    } else if (i + 1 < args.size()) {
      DRAGUARD_RETURN_IF_ERROR(Assign(*flag, args[++i]));
    } else {
      return InvalidArgumentError("flag --" + flag->name + " needs a value (" + flag->value_name +
                                  ")");
    }
  }
  return OkStatus();
}

std::string FlagSet::Help(std::string_view program) const {
  // Every "draguard " that starts a synopsis (the line, or after indentation) names `program`.
  std::string usage;
  constexpr std::string_view kName = "draguard ";
  for (size_t i = 0; i < usage_.size();) {
    if (usage_.compare(i, kName.size(), kName) == 0 && (i == 0 || usage_[i - 1] == ' ')) {
      usage += std::string(program) + " ";
      i += kName.size();
    } else {
      usage += usage_[i++];
    }
  }
  std::string out = "Usage: " + usage + "\n\nFlags:\n";
  for (const Flag& flag : flags_) {
    std::string left = "  --" + flag.name;
    for (const auto& [letter, long_name] : shorts_) {
      if (long_name == flag.name) left = "  -" + std::string(1, letter) + ", --" + flag.name;
    }
    if (!flag.value_name.empty()) left += " " + flag.value_name;
    if (left.size() < kHelpColumn) left.resize(kHelpColumn, ' ');
    else left += "\n" + std::string(kHelpColumn, ' ');
    out += left + flag.help + "\n";
  }
  return out;
}

std::vector<FlagSet::Listed> FlagSet::ListedFlags(std::string_view help) {
  std::vector<std::string_view> lines;
  size_t flags = help.find("\nFlags:\n");
  if (flags == std::string_view::npos) return {};
  for (size_t start = flags + 1; start < help.size();) {
    size_t end = std::min(help.find('\n', start), help.size());
    lines.push_back(help.substr(start, end - start));
    start = end + 1;
  }
  const std::string indent(kHelpColumn, ' ');
  std::vector<Listed> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    // "  --output FORMAT", or "  -o, --output FORMAT" for a flag with a one-letter form.
    char short_name = 0;
    size_t long_at = 2;  // where "--" starts
    if (line.size() > 8 && line.substr(0, 3) == "  -" && line[3] != '-' &&
        line.substr(4, 4) == ", --") {
      short_name = line[3];
      long_at = 6;
    } else if (line.substr(0, 4) != "  --") {
      continue;
    }
    // The help starts at kHelpColumn, on this line or, after a long left part, the next.
    std::string_view left = line, text;
    if (i + 1 < lines.size() && lines[i + 1].substr(0, kHelpColumn) == indent) {
      text = lines[i + 1].substr(kHelpColumn);
    } else if (line.size() > kHelpColumn) {
      left = line.substr(0, kHelpColumn);
      text = line.substr(kHelpColumn);
    }
    left.remove_prefix(long_at + 2);
    while (!left.empty() && left.back() == ' ') left.remove_suffix(1);
    const size_t space = left.find(' ');
    Listed flag{.name = std::string(left.substr(0, space)), .help = std::string(text),
                .short_name = short_name};
    if (space != std::string_view::npos) flag.value_name = std::string(left.substr(space + 1));
    out.push_back(std::move(flag));
  }
  return out;
}

StatusOr<std::chrono::milliseconds> ParseDuration(const std::string& flag,
                                                  const std::string& text) {
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string_view unit(end, static_cast<size_t>(text.data() + text.size() - end));
  const long long scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60'000
                        : unit == "h" ? 3'600'000 : 0;
  if (ec != std::errc() || value <= 0 || scale == 0 || value > 100'000'000 / scale * 1000) {
    return InvalidArgumentError("--" + flag + " wants a positive duration such as 500ms, 2s, "
                                "5m or 1h, not \"" + text + "\"");
  }
  return std::chrono::milliseconds(value * scale);
}

}  // namespace draguard::cli
