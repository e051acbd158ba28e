#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// The text in double quotes, escaped as a JSON string: Go's %q for printable text (the way Kueue
// and kubectl quote names in messages), and safe to print whatever the input holds.
std::string inQuotes(std::string_view text);

// Text from outside (a label, a node's reason, a server's message) as it may be shown on a
// terminal or in a log: bytes that are not UTF-8 and control characters, C0, DEL and C1, become
// visible escapes (\xff, \x1b, \u009b), so that no input can move the cursor, retitle the
// window or forge a line. Tabs and line breaks are kept when asked (our own multi-line messages).
std::string visibleText(std::string_view text, bool keepLineBreaks = false);
// The offset of the first byte of text that visibleText would escape, or npos when there is none.
std::size_t unprintableAt(std::string_view text, bool allowLineBreaks = false);
// What stops text[at] being printable, for messages: "a control character" or "a byte that is not UTF-8".
std::string_view unprintableKind(std::string_view text, std::size_t at);

// The text without leading and trailing blanks (space, tab, CR, LF).
std::string_view trimWhitespace(std::string_view text);

// ASCII case-insensitive equality (HTTP header names, slurm.conf-style keys).
bool equalsIgnoreCase(std::string_view a, std::string_view b);

// 1234567 -> "1,234,567": cluster-sized counts are hard to read without separators.
std::string groupThousands(std::int64_t value);

// How plural() writes its count: "1234" (the default; schedulers' messages print counts so), or
// "1,234" with groupThousands (our own summaries of cluster-sized changes).
enum class CountDigits { Plain, Grouped };

// The count and the word for it: "1 node", "3 nodes", "0 nodes". `one` is for a count of exactly
// 1, `many` for every other; both are given whole, for plurals that are not "+s" ("switches",
// "nodes move").
std::string plural(std::int64_t count, std::string_view one, std::string_view many,
                   CountDigits digits = CountDigits::Plain);

// Terminal columns of UTF-8 text: every glyph we print (box drawing, blocks, arrows, ASCII names)
// is one column wide, so counting code points is exact.
std::size_t displayWidth(std::string_view text);

// Columns aligned for a terminal: text left, numbers (cells starting with a digit or '-' + digit)
// right. Two spaces between columns; no trailing spaces.
class TextTable {
public:
    explicit TextTable(std::vector<std::string> headers);
    void addColumn(std::string header);
    void addRow(std::vector<std::string> cells);
    std::string render(std::string_view indent = {}) const;
    bool empty() const { return m_rows.empty(); }

private:
    std::vector<std::string> m_headers;
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace topodeck
