// Internal function names of CEL operators, as cel-go and cel-cpp spell them. The parser
// produces calls with these names; the checker and evaluator dispatch on them.
#ifndef DRAGUARD_POLICY_CEL_OPERATORS_H_
#define DRAGUARD_POLICY_CEL_OPERATORS_H_

namespace draguard::cel::op {

inline constexpr char kConditional[] = "_?_:_";
inline constexpr char kLogicalAnd[] = "_&&_";
inline constexpr char kLogicalOr[] = "_||_";
inline constexpr char kLogicalNot[] = "!_";
inline constexpr char kNotStrictlyFalse[] = "@not_strictly_false";  // all() loop condition
inline constexpr char kEquals[] = "_==_";
inline constexpr char kNotEquals[] = "_!=_";
inline constexpr char kLess[] = "_<_";
inline constexpr char kLessEquals[] = "_<=_";
inline constexpr char kGreater[] = "_>_";
inline constexpr char kGreaterEquals[] = "_>=_";
inline constexpr char kAdd[] = "_+_";
inline constexpr char kSubtract[] = "_-_";
inline constexpr char kMultiply[] = "_*_";
inline constexpr char kDivide[] = "_/_";
inline constexpr char kModulo[] = "_%_";
inline constexpr char kNegate[] = "-_";
inline constexpr char kIndex[] = "_[_]";
inline constexpr char kOptIndex[] = "_[?_]";
inline constexpr char kOptSelect[] = "_?._";
inline constexpr char kIn[] = "@in";

}  // namespace draguard::cel::op

#endif  // DRAGUARD_POLICY_CEL_OPERATORS_H_
