// Text renderings that must match Go byte for byte, because cel-go and Kubernetes put them
// into CEL values (strings.format(), string(double)) and messages (format.uri()):
//   GoQuote                strconv.Quote, i.e. fmt's %q of a string;
//   GoFormatShortest       strconv.FormatFloat(d, 'g', -1, 64), cel-go's string(double);
//   GoFormatFixed          fmt's %.<prec>f;
//   EnUsFormatFixed        golang.org/x/text/message's %.<prec>f for en_US (grouped
//                          "1,234.500", "∞", "NaN");
//   EnUsFormatScientific   x/text's %<width>e for en_US: six fraction digits, the
//                          "1.052033 × 10⁰³" notation, left-padded to `width` runes.
// Pure functions; thread safe.
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_GO_TEXT_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_GO_TEXT_H_

#include <string>
#include <string_view>

namespace draguard::cel::internal {

// Go's strconv.Quote. Printability follows Go's strconv.IsPrint except that unassigned code
// points count as printable (Go escapes them as \u....); CEL strings are valid UTF-8, and
// invalid bytes are escaped as \xHH as Go does.
std::string GoQuote(std::string_view text);

std::string GoFormatShortest(double d);
std::string GoFormatFixed(double d, int precision);
std::string EnUsFormatFixed(double d, int precision);
std::string EnUsFormatScientific(double d, int width);

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_GO_TEXT_H_
