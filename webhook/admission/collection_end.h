// Where a JSON object or array ends, found by its brackets and strings alone: what the review
// scan uses to step over request.object's spec without reading it (json_object.h, the
// deferred spec), so that a spec the memo remembers costs a bracket scan, not a parse.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_COLLECTION_END_H_
#define DRAGUARD_WEBHOOK_ADMISSION_COLLECTION_END_H_

#include <cstddef>
#include <string_view>

namespace draguard::webhook {

// The end (the position after its closing bracket) of the object or array whose opening
// bracket is at `pos`, or npos when the text ends first or a closing bracket comes with none
// open. Brackets inside strings do not count; a backslash takes the byte after it as is,
// inside a string or not (outside one it is invalid JSON anyway). Nothing else is checked: a
// valid collection ends exactly there, and for any text the answer depends only on the bytes
// up to it. Sixteen bytes a step, four at a time, where SSE2 is there (every x86-64).
size_t CollectionEnd(std::string_view text, size_t pos);

// The same a byte at a time: the general path, which CollectionEnd uses for the text's last
// bytes, and the reference its tests compare it with.
size_t CollectionEndBytewise(std::string_view text, size_t pos);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_COLLECTION_END_H_
