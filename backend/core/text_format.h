#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// 1234567 -> "1,234,567": cluster-sized counts are hard to read without separators.
std::string groupThousands(std::int64_t value);

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
