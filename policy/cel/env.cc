#include "policy/cel/env.h"

#include <array>
#include <mutex>
#include <utility>

#include "policy/cel/internal/container_names.h"
#include "policy/common/release.h"

namespace draguard::cel {

const Type* ObjectTypeDecl::FindField(std::string_view field) const {
  for (const auto& [name, type] : fields) {
    if (name == field) return &type;
  }
  return nullptr;
}

const Type* Environment::FindVariable(std::string_view name) const {
  auto it = variables_.find(name);
  return it == variables_.end() ? nullptr : &it->second;
}

const FunctionDecl* Environment::FindFunction(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

const ObjectTypeDecl* Environment::FindObjectType(std::string_view name) const {
  auto it = object_types_.find(name);
  return it == object_types_.end() ? nullptr : &it->second;
}

std::vector<std::string> Environment::CandidateNames(std::string_view name) const {
  return internal::ContainerCandidates(container_, name);
}

EnvironmentBuilder& EnvironmentBuilder::AddLibrary(Library library) {
  if (!env_->libraries_.insert(library).second) return *this;
  for (const FunctionDecl& fn : LibraryDeclarations(library)) AddFunction(fn);
  return *this;
}

EnvironmentBuilder& EnvironmentBuilder::AddFunction(const FunctionDecl& fn) {
  FunctionDecl& merged = env_->functions_[fn.name];
  merged.name = fn.name;
  const size_t dot = fn.name.rfind('.');
  if (dot != std::string::npos) env_->function_namespaces_.insert(fn.name.substr(0, dot));
  for (const OverloadDecl& o : fn.overloads) {
    for (const OverloadDecl& existing : merged.overloads) {
      if (existing.id == o.id) duplicate_names_.push_back(o.id);
    }
    merged.overloads.push_back(o);
    merged.overloads.back().type_param_count = CountTypeParams(o);
    merged.overloads.back().interned_id = InternOverloadId(o.id);
  }
  return *this;
}

EnvironmentBuilder& EnvironmentBuilder::AddVariable(std::string name, Type type) {
  if (name.find('.') != std::string::npos) env_->has_dotted_variables_ = true;
  if (!env_->variables_.emplace(name, std::move(type)).second) {
    duplicate_names_.push_back(std::move(name));
  }
  return *this;
}

EnvironmentBuilder& EnvironmentBuilder::AddObjectType(ObjectTypeDecl type) {
  std::string name = type.name;
  if (!env_->object_types_.emplace(name, std::move(type)).second) {
    duplicate_names_.push_back(std::move(name));
  }
  return *this;
}

EnvironmentBuilder& EnvironmentBuilder::SetContainer(std::string container) {
  env_->container_ = std::move(container);
  return *this;
}

EnvironmentBuilder& EnvironmentBuilder::SetHomogeneousAggregateLiterals(bool on) {
  env_->homogeneous_literals_ = on;
  return *this;
}

EnvironmentBuilder& EnvironmentBuilder::SetLiteralValidators(bool on) {
  env_->literal_validators_ = on;
  return *this;
}

StatusOr<std::shared_ptr<const Environment>> EnvironmentBuilder::Build() {
  if (!duplicate_names_.empty()) {
    return InvalidArgumentError("CEL environment: duplicate declaration of '" +
                                duplicate_names_.front() + "'");
  }
  return std::shared_ptr<const Environment>(std::move(env_));
}

ObjectTypeDecl DraDeviceType(bool allow_multiple_allocations, bool list_type_attributes) {
  ObjectTypeDecl device{kDraDeviceTypeName, {}};
  device.fields.emplace_back("driver", Type::String());
  // Upstream uses DynType with DRAListTypeAttributes so that comprehensions and includes()
  // type-check on attribute values, which may then be lists.
  const Type value = list_type_attributes ? Type::Dyn() : Type::Any();
  device.fields.emplace_back("attributes",
                             Type::Map(Type::String(), Type::Map(Type::String(), value)));
  device.fields.emplace_back("capacity",
                             Type::Map(Type::String(), Type::Map(Type::String(), QuantityType())));
  if (allow_multiple_allocations) {
    device.fields.emplace_back("allowMultipleAllocations", Type::Bool());
  }
  return device;
}

FunctionDecl DraIncludesDecl() {
  return FunctionDecl{"includes", {OverloadDecl{.id = "dra_includes_dyn_dyn",
                                                .member = true,
                                                .args = {Type::Dyn(), Type::Dyn()},
                                                .result = Type::Bool()}}};
}

bool DraIncludesDeclared(const EnvOptions& options) {
  // IntroducedVersion 1.36 with FeatureEnabled: StoredExpressions ignores the gate (and its
  // compatibility version includes 1.36); NewExpressions honours the gate, which overrides
  // the version.
  if (!ReleaseFor(options.version).cel.list_type_attributes) return false;
  return options.mode == EnvOptions::kStoredExpressions || options.list_type_attributes_gate;
}

std::vector<Library> DraLibraries(const EnvOptions& options) {
  std::vector<Library> libs;
  for (Library l : AllLibraries()) {
    // cel-go lists v3 is introduced in 1.34, so a 1.34 server (compatibility version 1.33)
    // rejects it in new expressions (apiserver pkg/cel/environment/base.go `baseOpts`).
    const bool lists_v3_new = ReleaseFor(options.version).cel.lists_v3_in_new_expressions;
    if (l == Library::kListsV3 && options.mode == EnvOptions::kNewExpressions &&
        !lists_v3_new) {
      continue;
    }
    libs.push_back(l);
  }
  return libs;
}

namespace {

std::shared_ptr<const Environment> BuildDraEnvironment(const EnvOptions& options) {
  // StoredExpressions ignores feature gates and includes every option set (apiserver
  // pkg/cel/environment/environment.go, `VersionedOptions.FeatureEnabled`),
  // so the gated device type with allowMultipleAllocations is always there.
  const bool gated_field =
      options.mode == EnvOptions::kStoredExpressions || options.consumable_capacity_gate;
  // The attribute type follows the gate in both modes (upstream builds it from the features).
  const bool lists = ReleaseFor(options.version).cel.list_type_attributes &&
                     options.list_type_attributes_gate;
  EnvironmentBuilder builder;
  for (Library l : DraLibraries(options)) builder.AddLibrary(l);
  if (DraIncludesDeclared(options)) builder.AddFunction(DraIncludesDecl());
  builder.AddObjectType(DraDeviceType(gated_field, lists));
  builder.AddVariable("device", Type::Object(kDraDeviceTypeName));
  builder.SetHomogeneousAggregateLiterals(true).SetLiteralValidators(true);
  // The declaration tables are static and duplicate-free; Build() cannot fail here.
  return std::move(builder.Build()).value();
}

// Releases with the same CelDialect share environments.
size_t DraIndex(const EnvOptions& o) {
  const CelDialect& cel = ReleaseFor(o.version).cel;
  return (cel.lists_v3_in_new_expressions ? 16 : 0) + (cel.list_type_attributes ? 8 : 0) +
         (o.mode == EnvOptions::kStoredExpressions ? 4 : 0) +
         (o.consumable_capacity_gate ? 2 : 0) + (o.list_type_attributes_gate ? 1 : 0);
}

}  // namespace

std::shared_ptr<const Environment> Environment::ForDraSelector(const EnvOptions& options) {
  static std::mutex mu;
  static std::array<std::shared_ptr<const Environment>, 32> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[DraIndex(options)];
  if (!slot) slot = BuildDraEnvironment(options);
  return slot;
}

}  // namespace draguard::cel
