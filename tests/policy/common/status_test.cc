#include "policy/common/status.h"

#include <gtest/gtest.h>

#include "policy/common/status_macros.h"
#include "policy/common/status_or.h"

namespace draguard {
namespace {

StatusOr<int> Half(int x) {
  if (x % 2 != 0) return InvalidArgumentError("odd");
  return x / 2;
}

StatusOr<int> Quarter(int x) {
  DRAGUARD_ASSIGN_OR_RETURN(int h, Half(x));
  DRAGUARD_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

Status CheckEven(int x) {
  DRAGUARD_RETURN_IF_ERROR(Half(x).status());
  return OkStatus();
}

TEST(StatusTest, OkHasNoMessage) {
  Status s(StatusCode::kOk, "ignored");
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, RendersCodeAndMessage) {
  EXPECT_EQ(NotFoundError("no file").ToString(), "NOT_FOUND: no file");
}

TEST(StatusOrTest, PropagatesThroughMacros) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_FALSE(CheckEven(3).ok());
}

TEST(StatusOrTest, OkStatusWithoutValueBecomesInternal) {
  StatusOr<int> s{OkStatus()};
  EXPECT_EQ(s.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace draguard
