// The validate stage of the batch pipeline (pipeline.h), run by `draguard lint` and
// `draguard explain` (which must not allocate what the API server would reject): every
// decoded object is validated as the API server validates it on create (policy/validate),
// and its findings are located in its file.
#ifndef DRAGUARD_POLICY_PIPELINE_VALIDATE_STAGE_H_
#define DRAGUARD_POLICY_PIPELINE_VALIDATE_STAGE_H_

#include <map>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/validate/options.h"

namespace draguard::pipeline {

// `base` completed for the objects of `decoded`: the labels of the Namespace objects among
// them, overridden key by key by base.namespace_labels (the command line's; a namespace
// given there without labels is known to have none), and the CEL
// selector checker (as the API server compiles selectors) unless base has one.
validate::ValidationOptions ValidationFor(const std::vector<k8s::DecodeResult>& decoded,
                                          const validate::ValidationOptions& base);

// The decoding diagnostics of one file followed by the validation findings of each of its
// objects, located (file, position, object). Thread-compatible: files may be validated in
// parallel with the same options.
std::vector<Diagnostic> ValidateFile(const k8s::DecodeResult& decoded,
                                     const validate::ValidationOptions& options);

// The errors (severity error only) among `per_file` (ValidateFile's result for each of
// `decoded`, in the same order) grouped by the object of their file they concern; objects
// without errors are absent. What the API server would reject. Pointers into `decoded`.
using ObjectErrors = std::map<const k8s::DecodedObject*, std::vector<Diagnostic>>;
ObjectErrors ErrorsByObject(const std::vector<k8s::DecodeResult>& decoded,
                            const std::vector<std::vector<Diagnostic>>& per_file);

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_VALIDATE_STAGE_H_
