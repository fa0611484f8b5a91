// The compact text of a JSON value written straight from its tokens: what opaque device
// configuration parameters are kept as (k8s::OpaqueDeviceConfiguration::parameters_json).
//
// The model keeps parameters as k8s::NodeToJson prints their tree: members in key order,
// without space, strings escaped as nlohmann's dump() escapes them. Reading the tree only to
// print it cost ~6 k instructions of a ~120 k admission request (issue 16); the common
// parameters (objects written with their keys in order, integers, ASCII text) are printed here
// from the tokens instead, and everything else takes the tree.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_COMPACT_JSON_H_
#define DRAGUARD_WEBHOOK_ADMISSION_COMPACT_JSON_H_

#include <cstddef>
#include <string>

#include "webhook/admission/json_lexer.h"

namespace draguard::webhook {

// Appends to `out` the text k8s::NodeToJson gives for the tree ReadJsonValue(lexer, depth,
// max_depth, ...) reads at the lexer's position, and leaves the lexer after the value as
// ReadJsonValue does; true then. Only for values whose every object has its keys in strictly
// increasing order and whose numbers are integers within int64 and strings ASCII: for any
// other value, and for text ReadJsonValue refuses (invalid, too deep), false, with `out` and
// the lexer's position unspecified: the caller seeks back and reads the tree (the general
// path; tests/webhook/admission/compact_json_test.cc compares the two).
bool AppendCompactJsonValue(JsonLexer& lexer, size_t depth, size_t max_depth, std::string& out);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_COMPACT_JSON_H_
