// Environment contents per version, mode and gate (apiserver pkg/cel/environment/base.go,
// dynamic-resource-allocation cel/compile.go `newCompiler`).
#include "policy/cel/env.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace draguard::cel {
namespace {

bool Has(const std::vector<Library>& libs, Library l) {
  return std::find(libs.begin(), libs.end(), l) != libs.end();
}

TEST(EnvTest, ListsV3OnlyFrom135InNewExpressions) {
  EXPECT_FALSE(Has(DraLibraries({.version = KubernetesVersion::k1_34}), Library::kListsV3));
  EXPECT_TRUE(Has(DraLibraries({.version = KubernetesVersion::k1_35}), Library::kListsV3));
  EXPECT_TRUE(Has(DraLibraries({.version = KubernetesVersion::k1_34,
                                .mode = EnvOptions::kStoredExpressions}),
                  Library::kListsV3));
}

TEST(EnvTest, DraEnvironmentIsSharedPerOptions) {
  auto a = Environment::ForDraSelector({});
  auto b = Environment::ForDraSelector({});
  auto c = Environment::ForDraSelector({.consumable_capacity_gate = true});
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), c.get());
}

TEST(EnvTest, DeviceVariableAndFields) {
  auto env = Environment::ForDraSelector({});
  const Type* device = env->FindVariable("device");
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->DebugString(), "kubernetes.DRADevice");
  const ObjectTypeDecl* type = env->FindObjectType(kDraDeviceTypeName);
  ASSERT_NE(type, nullptr);
  ASSERT_NE(type->FindField("capacity"), nullptr);
  EXPECT_EQ(type->FindField("capacity")->DebugString(),
            "map(string, map(string, kubernetes.Quantity))");
  EXPECT_EQ(type->FindField("allowMultipleAllocations"), nullptr);
  EXPECT_EQ(type->FindField("name"), nullptr);
}

TEST(EnvTest, SignIsDeclaredGlobalOnly) {
  const FunctionDecl* sign = Environment::ForDraSelector({})->FindFunction("sign");
  ASSERT_NE(sign, nullptr);
  for (const OverloadDecl& o : sign->overloads) EXPECT_FALSE(o.member) << o.id;
}

TEST(EnvTest, NoMathOrBase64) {
  auto env = Environment::ForDraSelector({.mode = EnvOptions::kStoredExpressions});
  EXPECT_EQ(env->FindFunction("math.greatest"), nullptr);
  EXPECT_EQ(env->FindFunction("base64.encode"), nullptr);
  EXPECT_EQ(env->FindFunction("reverse")->overloads.size(), 1u);  // lists only, not strings
}

TEST(EnvTest, BuilderRejectsDuplicateVariables) {
  EnvironmentBuilder b;
  b.AddVariable("x", Type::Int()).AddVariable("x", Type::String());
  EXPECT_FALSE(b.Build().ok());
}

TEST(EnvTest, ContainerCandidates) {
  EnvironmentBuilder b;
  b.SetContainer("a.b");
  auto env = std::move(b.Build()).value();
  EXPECT_EQ(env->CandidateNames("x"), (std::vector<std::string>{"a.b.x", "a.x", "x"}));
  EXPECT_EQ(env->CandidateNames(".x"), (std::vector<std::string>{"x"}));
}

TEST(EnvTest, OverloadIdsAreUniquePerFunction) {
  for (Library l : AllLibraries()) {
    for (const FunctionDecl& f : LibraryDeclarations(l)) {
      for (size_t i = 0; i < f.overloads.size(); ++i) {
        for (size_t j = i + 1; j < f.overloads.size(); ++j) {
          EXPECT_NE(f.overloads[i].id, f.overloads[j].id) << f.name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace draguard::cel
