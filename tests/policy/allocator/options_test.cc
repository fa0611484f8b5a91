#include "policy/allocator/options.h"

#include <gtest/gtest.h>

#include "policy/allocator/internal/amount.h"

namespace draguard::alloc {
namespace {

TEST(OptionsTest, ParsesKubeVersions) {
  EXPECT_EQ(ParseKubeVersion("1.34").value(), KubeVersion::k1_34);
  EXPECT_EQ(ParseKubeVersion("v1.35.2").value(), KubeVersion::k1_35);
  EXPECT_FALSE(ParseKubeVersion("1.3").ok());
  EXPECT_FALSE(ParseKubeVersion("1.36").ok());
}

TEST(OptionsTest, DefaultGatesMatchTheFeatureLadder) {
  FeatureGates g = DefaultFeatureGates(KubeVersion::k1_34);
  EXPECT_TRUE(g.prioritized_list);
  EXPECT_TRUE(g.admin_access);
  EXPECT_FALSE(g.device_taints);
  EXPECT_FALSE(g.partitionable_devices);
  EXPECT_FALSE(g.consumable_capacity);
  EXPECT_FALSE(g.binding_and_status());
}

TEST(OptionsTest, AppliesKubeStyleGates) {
  FeatureGates g;
  ASSERT_TRUE(ApplyFeatureGates("DRAPartitionableDevices=true, DRAAdminAccess=false,Other=true", g).ok());
  EXPECT_TRUE(g.partitionable_devices);
  EXPECT_FALSE(g.admin_access);
  EXPECT_FALSE(ApplyFeatureGates("DRADeviceTaints", g).ok());
  EXPECT_FALSE(ApplyFeatureGates("DRADeviceTaints=yes", g).ok());
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
