#include "webhook/admission/collection_end.h"

#include <bit>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace draguard::webhook {
namespace {

// Where a bracket scan is between two pieces of text.
struct BracketState {
  size_t open = 0;         // collections open
  bool in_string = false;  // inside a string
  bool escaped = false;    // the next byte follows a backslash
};

constexpr size_t kNotYet = std::string_view::npos - 1;

// Steps `state` over the bytes [pos, end) of `data`: the end of the collection when it is
// among them, npos when a closing bracket comes with none open, else kNotYet.
size_t StepBytes(const char* data, size_t pos, size_t end, BracketState& state) {
  for (; pos < end; ++pos) {
    const char c = data[pos];
    if (state.escaped) {
      state.escaped = false;
    } else if (c == '\\') {
      state.escaped = true;
    } else if (c == '"') {
      state.in_string = !state.in_string;
    } else if (state.in_string) {
      continue;
    } else if (c == '{' || c == '[') {
      ++state.open;
    } else if (c == '}' || c == ']') {
      if (state.open == 0) return std::string_view::npos;
      if (--state.open == 0) return pos + 1;
    }
  }
  return kNotYet;
}

#if defined(__SSE2__)
// The bytes of the 64 at `p` (bit i for p[i]) that are a quote, a backslash, an opening and
// a closing bracket. Brackets are compared with bit 0x20 set, which folds '[' onto '{' and
// ']' onto '}'.
struct BlockMasks {
  uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

BlockMasks Classify(const char* p) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i fold = _mm_set1_epi8(0x20);
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  BlockMasks m;
  for (int i = 0; i < 4; ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i folded = _mm_or_si128(v, fold);
    const auto bits = [](__m128i x) {
      return static_cast<uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(x)));
    };
    m.quote |= bits(_mm_cmpeq_epi8(v, quote)) << (16 * i);
    m.backslash |= bits(_mm_cmpeq_epi8(v, backslash)) << (16 * i);
    m.open |= bits(_mm_cmpeq_epi8(folded, open)) << (16 * i);
    m.close |= bits(_mm_cmpeq_epi8(folded, close)) << (16 * i);
  }
  return m;
}

// The bytes of a block that follow a backslash (themselves not taken by an earlier one),
// given the bytes of its backslashes and whether its first byte follows one of the block
// before; `escaped_out` says whether the next block's first byte does. Backslashes are rare
// in a spec (a CEL string literal's quotes), so they are walked one by one.
uint64_t EscapedBytes(uint64_t backslash, bool escaped_in, bool& escaped_out) {
  uint64_t escaped = escaped_in ? 1 : 0;
  uint64_t pending = backslash & ~escaped;
  escaped_out = false;
  while (pending != 0) {
    const int i = std::countr_zero(pending);
    if (i == 63) {
      escaped_out = true;
      break;
    }
    const uint64_t next = uint64_t{1} << (i + 1);
    escaped |= next;
    pending &= ~((uint64_t{1} << i) | next);
  }
  return escaped;
}

// Bit i set when an odd number of the bits 0..i of `x` are set.
uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}
#endif

}  // namespace

size_t CollectionEndBytewise(std::string_view text, size_t pos) {
  BracketState state;
  const size_t end = StepBytes(text.data(), pos, text.size(), state);
  return end == kNotYet ? std::string_view::npos : end;
}

size_t CollectionEnd(std::string_view text, size_t pos) {
  const char* const data = text.data();
  const size_t size = text.size();
  BracketState state;
#if defined(__SSE2__)
  while (size - pos >= 64) {
    const BlockMasks m = Classify(data + pos);
    uint64_t escaped = 0;
    if (m.backslash != 0 || state.escaped) {
      escaped = EscapedBytes(m.backslash, state.escaped, state.escaped);
    }
    // Inside a string: after an odd number of its quotes (the opening quote included).
    uint64_t in_string = PrefixXor(m.quote & ~escaped);
    if (state.in_string) in_string = ~in_string;
    state.in_string = (in_string >> 63) != 0;
    const uint64_t close = m.close & ~escaped & ~in_string;
    uint64_t brackets = (m.open & ~escaped & ~in_string) | close;
    while (brackets != 0) {
      const uint64_t bit = brackets & (~brackets + 1);
      if ((close & bit) == 0) {
        ++state.open;
      } else {
        if (state.open == 0) return std::string_view::npos;
        if (--state.open == 0) return pos + static_cast<size_t>(std::countr_zero(bit)) + 1;
      }
      brackets ^= bit;
    }
    pos += 64;
  }
#endif
  const size_t end = StepBytes(data, pos, size, state);
  return end == kNotYet ? std::string_view::npos : end;
}

}  // namespace draguard::webhook
