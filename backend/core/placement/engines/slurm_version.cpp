#include "core/placement/engines/placement_engine.h"

#include <cctype>
#include <cstdio>

namespace topodeck {
namespace {

bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Reads a run of digits at pos; false when there is none or it is absurdly long.
bool readNumber(std::string_view text, std::size_t& pos, int& value) {
    const std::size_t start = pos;
    value = 0;
    while (pos < text.size() && isDigit(text[pos]) && pos - start < 6) value = value * 10 + (text[pos++] - '0');
    return pos > start && (pos == text.size() || !isDigit(text[pos]));
}

} // namespace

Result<SlurmVersion> SlurmVersion::parse(std::string_view text) {
    const auto bad = [text] {
        return Error{"invalid Slurm version \"" + std::string(text) +
                     "\": expected MAJOR.MINOR[.PATCH], e.g. 22.05 or 24.05.3"};
    };
    // `sinfo -V` prints "slurm 24.05.3" or, on Debian, "slurm-wlm 22.05.8"; a bare version is fine
    // too. The version is the last word.
    std::string_view word = text;
    while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back()))) word.remove_suffix(1);
    if (const auto space = word.find_last_of(" \t"); space != std::string_view::npos) word.remove_prefix(space + 1);
    if (word.empty() || !isDigit(word.front())) return bad();

    SlurmVersion version;
    std::size_t pos = 0;
    if (!readNumber(word, pos, version.major) || pos >= word.size() || word[pos] != '.') return bad();
    ++pos;
    if (!readNumber(word, pos, version.minor)) return bad();
    version.patch = 0;
    if (pos < word.size() && word[pos] == '.') {
        ++pos;
        if (!readNumber(word, pos, version.patch)) return bad();
    }
    // A package revision or release-candidate suffix ("22.05.8-4+deb12u3", "26.11.0rc1") is not
    // part of the rules' version.
    if (pos < word.size() && word[pos] != '-' && word[pos] != '+' && word[pos] != '~' &&
        !std::isalpha(static_cast<unsigned char>(word[pos])))
        return bad();
    if (version.major < 1 || version.minor < 1 || version.minor > 12) return bad();
    return version;
}

std::string SlurmVersion::toString() const {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%d.%02d.%d", major, minor, patch);
    return buffer;
}

} // namespace topodeck
