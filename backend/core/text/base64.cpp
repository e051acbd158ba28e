#include "core/text/base64.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace topodeck {

Result<std::string> decodeBase64(std::string_view text) {
    static const std::array<int, 256> values = [] {
        std::array<int, 256> table{};
        table.fill(-1);
        const std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (std::size_t i = 0; i < alphabet.size(); ++i) table[static_cast<unsigned char>(alphabet[i])] = int(i);
        return table;
    }();
    std::string out;
    out.reserve(text.size() / 4 * 3);
    std::uint32_t buffer = 0;
    int bits = 0;
    std::size_t padding = 0;
    std::size_t symbols = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n' || c == '\r') continue; // wrapped lines, as some tools write them
        if (c == '=') {
            ++padding;
            ++symbols;
            continue;
        }
        const int value = values[static_cast<unsigned char>(c)];
        if (value < 0 || padding > 0) return Error{"illegal base64 data at input byte " + std::to_string(i)};
        buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
        bits += 6;
        ++symbols;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    if (symbols % 4 != 0 || padding > 2)
        return Error{"illegal base64 data at input byte " + std::to_string(text.size())};
    return out;
}

std::string encodeBase64(std::string_view bytes) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t chunk = 0;
        for (std::size_t j = 0; j < 3; ++j)
            chunk = (chunk << 8) | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0u);
        for (std::size_t j = 0; j < 4; ++j) out += j <= n ? alphabet[(chunk >> (18 - 6 * j)) & 0x3f] : '=';
    }
    return out;
}

} // namespace topodeck
