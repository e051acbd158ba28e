#pragma once

#include <string>
#include <string_view>

namespace topodeck {

// Appends `text` as a JSON string literal (quotes included). Invalid UTF-8 becomes U+FFFD, so
// the output always parses. Plain ASCII, nearly all of a cluster's names, is scanned 8 bytes at
// a time.
void appendJsonString(std::string& out, std::string_view text);

// Length of the valid UTF-8 sequence of two to four bytes starting at text[i] (no overlongs, no
// surrogates, at most U+10FFFF), or 0 when there is none there.
std::size_t validSequenceLength(std::string_view text, std::size_t i);

} // namespace topodeck
