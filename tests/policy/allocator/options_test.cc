#include "policy/allocator/options.h"

#include <gtest/gtest.h>

#include "policy/allocator/internal/amount.h"

namespace draguard::alloc {
namespace {

TEST(OptionsTest, BindingAndStatusNeedsBothGates) {
  FeatureGates g(KubernetesVersion::k1_35);
  EXPECT_FALSE(BindingAndStatus(g));
  g.SetEnabled(Gate::kDRADeviceBindingConditions, true);
  EXPECT_TRUE(BindingAndStatus(g));
  g.SetEnabled(Gate::kDRAResourceClaimDeviceStatus, false);
  EXPECT_FALSE(BindingAndStatus(g));
}

struct AmountCase {
  const char* text;
  std::optional<int64_t> milli;
};

class AmountTest : public ::testing::TestWithParam<AmountCase> {};

TEST_P(AmountTest, ParsesQuantities) {
  EXPECT_EQ(internal::ParseMilli(GetParam().text), GetParam().milli) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(Quantities, AmountTest,
                         ::testing::Values(AmountCase{.text = "8", .milli = 8000},
                                           AmountCase{.text = "500m", .milli = 500},
                                           AmountCase{.text = "1Gi", .milli = 1073741824000},
                                           AmountCase{.text = "1.5k", .milli = 1500000},
                                           AmountCase{.text = "2e3", .milli = 2000000},
                                           AmountCase{.text = "192Gi", .milli = 206158430208000},
                                           AmountCase{.text = "", .milli = std::nullopt},
                                           AmountCase{.text = "-1", .milli = std::nullopt},
                                           AmountCase{.text = "1Qi", .milli = std::nullopt}));

}  // namespace
}  // namespace draguard::alloc
