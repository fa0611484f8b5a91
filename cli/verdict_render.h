// How explain and capacity show a subject and the reasons of its verdict, in text and JSON:
// one rendering, so that a "no" reads the same in both commands.
#ifndef DRAGUARD_CLI_VERDICT_RENDER_H_
#define DRAGUARD_CLI_VERDICT_RENDER_H_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "policy/allocator/result.h"
#include "policy/common/diagnostic.h"
#include "policy/pipeline/satisfiability_stage.h"

namespace draguard::cli {

// "ResourceClaim ns/name".
std::string SubjectName(const pipeline::SatisfiabilityResult& r);

// "claim NAME: " for a reason about pod claim `claim`, "" for claims and templates.
std::string ClaimLabel(const pipeline::SatisfiabilityResult& r, size_t claim);

// Every line of `text` indented by two spaces.
std::string Indented(const std::string& text);

// The subject's validation errors (compiler style) and verdict reasons ("message [code]"),
// each line indented by two spaces.
void RenderReasonsText(const pipeline::SatisfiabilityResult& r, std::ostream& out);

// One reason of the verdict: code, message, and claim, request, node, device when known.
nlohmann::json ReasonJson(const pipeline::SatisfiabilityResult& r, const alloc::Reason& reason);

// A validation error of a rejected subject: a reason with where it is.
nlohmann::json ErrorJson(const Diagnostic& d);

// The subject's errors then its verdict's reasons, as ReasonJson / ErrorJson entries.
nlohmann::json ReasonsJson(const pipeline::SatisfiabilityResult& r);

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_VERDICT_RENDER_H_
