#pragma once

// What the fuzz targets share: the input as text, a check that aborts (so that libFuzzer and the
// replay tests count a broken invariant as a crash), the packed form of a directory, and the
// steps a caller takes after a reader succeeded (state, hierarchy, index, reports).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
    return size == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(data), size);
}

// An invariant the reader promises; broken, it is a finding like a crash.
#define TOPODECK_FUZZ_CHECK(condition, what)                                                              \
    do {                                                                                                  \
        if (!(condition)) {                                                                               \
            std::fprintf(stderr, "fuzz check failed: %s (%s) at %s:%d\n", what, #condition, __FILE__, __LINE__); \
            std::abort();                                                                                 \
        }                                                                                                 \
    } while (false)

// Several files as one input: each starts with a line "==> NAME <==" (as `tail -n +1 FILES`
// prints them) and runs up to the next such line; the '\n' before a header belongs to it.
inline std::string packFiles(const std::vector<std::pair<std::string, std::string>>& files) {
    std::string out;
    for (const auto& [name, content] : files) {
        if (!out.empty()) out += '\n';
        out += "==> " + name + " <==\n" + content;
    }
    return out;
}

inline std::vector<std::pair<std::string, std::string>> unpackFiles(std::string_view input) {
    std::vector<std::pair<std::string, std::string>> files;
    std::size_t pos = 0;
    const auto headerAt = [&](std::size_t at) { return input.compare(at, 4, "==> ") == 0; };
    if (!headerAt(0)) {
        // Bytes before the first header: a file without a name.
        std::size_t next = input.find("\n==> ");
        files.emplace_back("", std::string(input.substr(0, next)));
        if (next == std::string_view::npos) return files;
        pos = next + 1;
    }
    while (pos < input.size()) {
        const std::size_t eol = input.find('\n', pos);
        const std::string_view header = input.substr(pos, eol == std::string_view::npos ? input.npos : eol - pos);
        std::string name(header.substr(4));
        if (name.size() >= 4 && name.compare(name.size() - 4, 4, " <==") == 0) name.resize(name.size() - 4);
        if (eol == std::string_view::npos) {
            files.emplace_back(std::move(name), std::string());
            break;
        }
        const std::size_t next = input.find("\n==> ", eol);
        const std::size_t end = next == std::string_view::npos ? input.size() : next;
        files.emplace_back(std::move(name), std::string(input.substr(eol + 1, end - eol - 1)));
        if (next == std::string_view::npos) break;
        pos = next + 1;
    }
    return files;
}

} // namespace topodeck::fuzz
