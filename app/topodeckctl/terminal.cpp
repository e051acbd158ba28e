#include "terminal.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace topodeck::cli {

bool stdoutIsTerminal() {
    return ::isatty(STDOUT_FILENO) == 1;
}

bool noColorRequested() {
    const char* value = std::getenv("NO_COLOR");
    return value != nullptr && value[0] != '\0';
}

Result<std::string> readAll(std::FILE* stream) {
    std::string text;
    char buffer[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, stream)) > 0) text.append(buffer, n);
    if (std::ferror(stream)) return Error{std::string("reading stdin: ") + std::strerror(errno)};
    return text;
}

void writeStdout(std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

std::string redrawScreen(std::string_view text, bool firstFrame) {
    constexpr std::string_view home = "\x1b[H", clearScreen = "\x1b[2J", clearLineTail = "\x1b[K",
                               clearBelow = "\x1b[J";
    std::string out(home);
    if (firstFrame) out += clearScreen;
    out.reserve(text.size() + text.size() / 20 + 16);
    for (const char c : text) {
        if (c == '\n') out += clearLineTail;
        out += c;
    }
    out += clearBelow;
    return out;
}

} // namespace topodeck::cli
