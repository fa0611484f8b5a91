// FunctionRef<R(Args...)>: a non-owning reference to a callable, for callback parameters that
// are called before the function taking them returns and are not kept. Unlike std::function
// it never allocates and never copies the callable (a lambda capturing more than two
// references makes std::function allocate), and a call is one indirect call.
//
// The callable must outlive the FunctionRef: bind it to a parameter, not to a variable that
// outlives a temporary lambda.
#ifndef DRAGUARD_POLICY_COMMON_FUNCTION_REF_H_
#define DRAGUARD_POLICY_COMMON_FUNCTION_REF_H_

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace draguard {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor): binds like std::function
      : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* callable, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(callable),
                             std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(callable_, std::forward<Args>(args)...); }

 private:
  void* callable_;
  R (*call_)(void*, Args...);
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_FUNCTION_REF_H_
