#include "core/text/text_format.h"

#include "core/text/json_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace topodeck {

std::string inQuotes(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

namespace {

// The length of the printable character at text[i], or 0 when it is not one.
std::size_t printableLength(std::string_view text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) return c >= 0x20 && c != 0x7f ? 1 : 0;
    const std::size_t length = validSequenceLength(text, i);
    // U+0080..U+009F, the C1 controls, are C2 80..C2 9F.
    if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) return 0;
    return length;
}

} // namespace

std::string visibleText(std::string_view text, bool keepLineBreaks) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (const std::size_t length = printableLength(text, i)) {
            out.append(text.substr(i, length));
            i += length;
            continue;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (keepLineBreaks && (c == '\n' || c == '\t' || c == '\r')) {
            out += static_cast<char>(c);
        } else if (c == 0xC2 && validSequenceLength(text, i) == 2) { // a C1 control
            out += "\\u00";
            out += kHex[static_cast<unsigned char>(text[i + 1]) >> 4];
            out += kHex[static_cast<unsigned char>(text[i + 1]) & 0xF];
            i += 2;
            continue;
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
        ++i;
    }
    return out;
}

namespace {

// Whether the 8 bytes at `at` are all printable ASCII (0x20..0x7e), tested at once: every name and
// value of a cluster-sized file passes through here, nearly all of it plain ASCII. A byte at or
// above 0x80 sets its top bit; one below 0x20 borrows into it when 0x20 is subtracted; 0x7f
// carries into it when 1 is added. A borrow or carry can only spill over from a byte that was
// caught itself, so a clean block is never misjudged.
bool printableAsciiBlock(const char* at) {
    std::uint64_t x;
    std::memcpy(&x, at, sizeof x);
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    return ((x | (x - 0x20 * kOnes) | (x + kOnes)) & (0x80 * kOnes)) == 0;
}

} // namespace

std::size_t unprintableAt(std::string_view text, bool allowLineBreaks) {
    std::size_t i = 0;
    while (i + 8 <= text.size() && printableAsciiBlock(text.data() + i)) i += 8;
    for (; i < text.size();) {
        if (const auto c = static_cast<unsigned char>(text[i]); c >= 0x20 && c < 0x7f) {
            ++i; // printable ASCII, the usual case of a short text or a tail
            continue;
        }
        std::size_t length = printableLength(text, i);
        if (length == 0 && allowLineBreaks && (text[i] == '\n' || text[i] == '\t' || text[i] == '\r')) length = 1;
        if (length == 0) return i;
        i += length;
    }
    return std::string_view::npos;
}

std::string_view unprintableKind(std::string_view text, std::size_t at) {
    const bool notUtf8 = static_cast<unsigned char>(text[at]) >= 0x80 && validSequenceLength(text, at) == 0;
    return notUtf8 ? "a byte that is not UTF-8" : "a control character";
}

std::string_view trimWhitespace(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    return text;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

std::string groupThousands(std::int64_t value) {
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    (void)ec; // 24 bytes always hold an int64
    const std::string_view digits(buffer, static_cast<std::size_t>(end - buffer));
    const std::size_t sign = (!digits.empty() && digits.front() == '-') ? 1 : 0;
    std::string out(digits.substr(0, sign));
    const std::size_t count = digits.size() - sign;
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0 && (count - i) % 3 == 0) out += ',';
        out += digits[sign + i];
    }
    return out;
}

std::string plural(std::int64_t count, std::string_view one, std::string_view many, CountDigits digits) {
    std::string text = digits == CountDigits::Grouped ? groupThousands(count) : std::to_string(count);
    text += ' ';
    text += count == 1 ? one : many;
    return text;
}

std::size_t displayWidth(std::string_view text) {
    std::size_t width = 0;
    for (unsigned char c : text)
        if ((c & 0xC0) != 0x80) ++width;
    return width;
}

TextTable::TextTable(std::vector<std::string> headers) : m_headers(std::move(headers)) {}

void TextTable::addColumn(std::string header) {
    m_headers.push_back(std::move(header));
}

void TextTable::addRow(std::vector<std::string> cells) {
    cells.resize(m_headers.size());
    m_rows.push_back(std::move(cells));
}

std::string TextTable::render(std::string_view indent) const {
    auto numeric = [](const std::string& cell) {
        const std::size_t start = !cell.empty() && cell.front() == '-' ? 1 : 0;
        return cell.size() > start && cell[start] >= '0' && cell[start] <= '9';
    };
    std::vector<std::size_t> widths(m_headers.size());
    std::vector<bool> rightAligned(m_headers.size(), true);
    for (std::size_t c = 0; c < m_headers.size(); ++c) {
        widths[c] = displayWidth(m_headers[c]);
        for (const auto& row : m_rows) {
            widths[c] = std::max(widths[c], displayWidth(row[c]));
            // Placeholders for "nothing" do not decide how a column of numbers aligns.
            if (!row[c].empty() && row[c] != "-" && row[c] != "·" && !numeric(row[c])) rightAligned[c] = false;
        }
    }
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text(indent);
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t pad = widths[c] - displayWidth(cells[c]);
            if (c > 0) text += "  ";
            if (rightAligned[c]) text.append(pad, ' ');
            text += cells[c];
            if (!rightAligned[c]) text.append(pad, ' ');
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out += text;
        out += '\n';
    };
    line(m_headers);
    for (const auto& row : m_rows) line(row);
    return out;
}

} // namespace topodeck
