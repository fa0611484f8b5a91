// The schema stage of the batch pipeline (pipeline.h; policy/schema): selectors and
// constraints of every claim, template and DeviceClass among the inputs are type-checked
// against the attribute schema built from the built-in catalog, --schema files and the
// ResourceSlices of the inventory and of the inputs. DeviceClasses of the inputs and the
// inventory tell which devices a request can reach.
#ifndef DRAGUARD_POLICY_PIPELINE_SCHEMA_STAGE_H_
#define DRAGUARD_POLICY_PIPELINE_SCHEMA_STAGE_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/source.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"

namespace draguard::pipeline {

struct SchemaPhaseOptions {
  // Run the phase at all.
  bool enabled = true;
  // --no-builtin-schema turns the embedded catalog off.
  bool builtin_catalog = true;
  // --schema FILE (repeatable), already read by the caller.
  std::vector<SourceText> files;
  // --strict-schema: unknown attributes, capacities and constraint names are errors.
  bool strict = false;
};

// Returns the located findings: schema.file.* in the schema files, schema.slice.* in the
// input slices (unlocated for inventory slices), and the checks of every object.
std::vector<Diagnostic> CheckSchemaPhase(const std::vector<k8s::DecodeResult>& decoded,
                                         const inventory::ClusterObjects* inventory,
                                         const SchemaPhaseOptions& options, size_t jobs);

// The same in two steps, for lint's two-pass run, which checks each object as it reads the
// inputs a second time: the constructor builds the schema and observes the input slices,
// CheckObject checks one object. `context` holds (at least) every ResourceSlice and
// DeviceClass among the inputs, in input order; it and `inventory` must outlive the phase.
// Diagnostics() then one CheckObject per object, in input order, give CheckSchemaPhase's
// findings. Thread-compatible; CheckObject may run concurrently.
class SchemaPhase {
 public:
  SchemaPhase(const std::vector<k8s::DecodeResult>& context,
              const inventory::ClusterObjects* inventory, const SchemaPhaseOptions& options);
  ~SchemaPhase();

  // The findings before any object's: schema files, input slices.
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  // Appends the located findings of one object (none when the phase is off or the schema
  // could not be built).
  void CheckObject(const k8s::DecodedObject& object, std::vector<Diagnostic>& out) const;

 private:
  struct Built;
  std::unique_ptr<Built> built_;  // null: nothing to check objects against
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_SCHEMA_STAGE_H_
