// Attributes read by a selector (selector_reads.h).
#include "policy/allocator/selector_reads.h"

#include <algorithm>
#include <string>

#include "policy/cel/operators.h"

namespace draguard::alloc {
namespace {

constexpr char kDevice[] = "device";

const std::string* StringConst(const cel::Expr& e) {
  const cel::ConstExpr* c = e.as_const();
  return c == nullptr ? nullptr : std::get_if<std::string>(&c->value);
}

bool IsDevice(const cel::Expr& e) {
  const cel::IdentExpr* ident = e.as_ident();
  return ident != nullptr && ident->name == kDevice;
}

// `device.<field>` (not a presence test).
bool IsDeviceField(const cel::Expr& e, std::string_view field) {
  const cel::SelectExpr* sel = e.as_select();
  return sel != nullptr && !sel->test_only && sel->field == field && IsDevice(*sel->operand);
}

// The domain D of `device.attributes[D]` or `device.attributes.D`, or null.
const std::string* AttributeDomain(const cel::Expr& e) {
  if (const cel::SelectExpr* sel = e.as_select()) {
    if (!sel->test_only && IsDeviceField(*sel->operand, "attributes")) return &sel->field;
    return nullptr;
  }
  const cel::CallExpr* call = e.as_call();
  if (call == nullptr || call->target || call->function != cel::op::kIndex ||
      call->args.size() != 2) {
    return nullptr;
  }
  if (!IsDeviceField(*call->args[0], "attributes")) return nullptr;
  return StringConst(*call->args[1]);
}

class Walker {
 public:
  std::vector<AttributeName> reads;
  bool unknown = false;

  void Visit(const cel::Expr& e) {
    if (unknown) return;
    if (Access(e)) return;
    if (IsDeviceField(e, "driver") || IsDeviceField(e, "allowMultipleAllocations") ||
        IsDeviceField(e, "capacity")) {
      return;
    }
    if (const cel::IdentExpr* ident = e.as_ident()) {
      // `device` as a whole, its attribute map, or a root-scoped `.device`.
      if (ident->name == kDevice || ident->name.rfind(".device", 0) == 0) unknown = true;
      return;
    }
    if (const cel::ComprehensionExpr* c = e.as_comprehension()) {
      if (c->iter_var == kDevice || c->iter_var2 == kDevice || c->accu_var == kDevice) {
        unknown = true;
        return;
      }
    }
    cel::ForEachChild(e, [&](const cel::Expr& child) { Visit(child); });
  }

 private:
  // Keeps each attribute once: a selector names its few attributes again and again
  // (`attributes[D].N.startsWith(..) && attributes[D].N != ..`), and a scan of the few kept
  // is cheaper than copying the names and sorting out the repeats.
  void Record(const std::string& domain, const std::string& name) {
    for (const AttributeName& a : reads) {
      if (a.name == name && a.domain == domain) return;
    }
    reads.push_back(AttributeName{.domain = domain, .name = name});
  }

  // One attribute read by name; its operands need no further visit.
  bool Access(const cel::Expr& e) {
    if (const cel::SelectExpr* sel = e.as_select()) {
      const std::string* domain = AttributeDomain(*sel->operand);
      if (domain == nullptr) return false;
      Record(*domain, sel->field);
      return true;
    }
    const cel::CallExpr* call = e.as_call();
    if (call == nullptr || call->target || call->args.size() != 2) return false;
    const std::string_view f = call->function;
    if (f == cel::op::kIndex || f == cel::op::kOptIndex || f == cel::op::kOptSelect) {
      const std::string* domain = AttributeDomain(*call->args[0]);
      const std::string* name = StringConst(*call->args[1]);
      if (domain == nullptr || name == nullptr) return false;
      Record(*domain, *name);
      return true;
    }
    if (f == cel::op::kIn) {
      const std::string* name = StringConst(*call->args[0]);
      const std::string* domain = AttributeDomain(*call->args[1]);
      if (domain == nullptr || name == nullptr) return false;
      Record(*domain, *name);
      return true;
    }
    return false;
  }
};

}  // namespace

std::optional<std::vector<AttributeName>> AttributesReadBy(const cel::Expr& root) {
  Walker walker;
  walker.Visit(root);
  if (walker.unknown) return std::nullopt;
  std::sort(walker.reads.begin(), walker.reads.end());  // unique already (Record)
  return std::move(walker.reads);
}

}  // namespace draguard::alloc
