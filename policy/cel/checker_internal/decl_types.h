// The types the declaration tables spell most often, shared by the
// *_decls.cc files (one definition each, whatever the build's grouping of files).
#ifndef DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_DECL_TYPES_H_
#define DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_DECL_TYPES_H_

#include "policy/cel/types.h"

namespace draguard::cel::checker_internal {

inline const Type kBool = Type::Bool();
inline const Type kInt = Type::Int();
inline const Type kUint = Type::Uint();
inline const Type kDouble = Type::Double();
inline const Type kString = Type::String();
inline const Type kBytes = Type::Bytes();
inline const Type kTs = Type::Timestamp();
inline const Type kDur = Type::Duration();

}  // namespace draguard::cel::checker_internal

#endif  // DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_DECL_TYPES_H_
