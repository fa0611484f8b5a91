// Decodes YAML texts as the files in0.yaml, in1.yaml, ... with default options: the inputs of
// the pipeline tests.
#ifndef DRAGUARD_TESTS_POLICY_PIPELINE_DECODE_INPUTS_H_
#define DRAGUARD_TESTS_POLICY_PIPELINE_DECODE_INPUTS_H_

#include <string>
#include <vector>

#include "policy/common/source.h"
#include "policy/k8s/decode.h"

namespace draguard::pipeline::testing {

inline std::vector<k8s::DecodeResult> DecodeInputs(const std::vector<std::string>& texts) {
  std::vector<k8s::DecodeResult> out;
  for (size_t i = 0; i < texts.size(); ++i) {
    out.push_back(k8s::Decode(SourceText("in" + std::to_string(i) + ".yaml", texts[i])));
  }
  return out;
}

}  // namespace draguard::pipeline::testing

#endif  // DRAGUARD_TESTS_POLICY_PIPELINE_DECODE_INPUTS_H_
