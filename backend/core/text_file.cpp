#include "core/text_file.h"

#include "core/text_format.h"

#include <cerrno>
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

} // namespace topodeck
