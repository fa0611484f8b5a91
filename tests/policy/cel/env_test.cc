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

// The checker advances its fresh-variable counter by OverloadDecl::type_param_count, which
// EnvironmentBuilder counts once per overload instead of the checker walking the types per
// candidate: the stored count must be the walked one for every overload of every library.
TEST(EnvTest, BuilderCountsTypeParamsOfEveryOverload) {
  EnvironmentBuilder b;
  for (Library l : AllLibraries()) b.AddLibrary(l);
  auto env = std::move(b.Build()).value();
  size_t overloads = 0;
  for (Library l : AllLibraries()) {
    for (const FunctionDecl& f : LibraryDeclarations(l)) {
      const FunctionDecl* merged = env->FindFunction(f.name);
      ASSERT_NE(merged, nullptr) << f.name;
      for (const OverloadDecl& o : merged->overloads) {
        EXPECT_EQ(o.type_param_count, CountTypeParams(o)) << o.id;
        ++overloads;
      }
    }
  }
  EXPECT_GT(overloads, 100u);
  // From the declarations' types: list(A) -> A; map(A, B) -> B; string -> int.
  struct Expected {
    const char* function;
    const char* id;
    int count;
  };
  for (const Expected& e : {Expected{"_[_]", "index_list", 1}, Expected{"_[_]", "index_map", 2},
                            Expected{"size", "size_string", 0}}) {
    const FunctionDecl* fn = env->FindFunction(e.function);
    ASSERT_NE(fn, nullptr) << e.function;
    auto it = std::find_if(fn->overloads.begin(), fn->overloads.end(),
                           [&](const OverloadDecl& o) { return o.id == e.id; });
    ASSERT_NE(it, fn->overloads.end()) << e.id;
    EXPECT_EQ(it->type_param_count, e.count) << e.id;
  }
}

}  // namespace
}  // namespace draguard::cel
