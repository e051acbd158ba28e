#include "core/text/text_file.h"

#include "core/text/text_format.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace topodeck {

Result<std::string> readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot read " + path + ": " + std::strerror(errno)};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Error{"cannot read " + path};
    return text.str();
}

Result<std::string> readTokenFile(const std::string& path) {
    Result<std::string> text = readTextFile(path);
    if (!text) return text.error();
    return std::string(trimWhitespace(*text));
}

Status writeFileAtomically(const std::string& path, std::string_view text) {
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (!file) return Error{"cannot write " + temporary + ": " + std::strerror(errno)};
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        const std::string why = std::strerror(errno);
        std::remove(temporary.c_str());
        return Error{"cannot write " + path + ": " + why};
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(temporary.c_str());
        return Error{"cannot write " + path + ": " + why};
    }
    return {};
}

} // namespace topodeck
