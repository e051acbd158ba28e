#include "cli_args.h"

#include "terminal.h"

#include "core/text/text_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace topodeck::cli {

std::variant<ParsedArgs, int> parseCommandLine(const CommandSpec& spec, std::span<const std::string> args) {
    auto parsed = parseArgs(spec, args);
    if (!parsed) return usageError(parsed.error().message);
    if (parsed->helpRequested()) {
        writeStdout(helpText(spec));
        return kExitOk;
    }
    return std::move(*parsed);
}

Result<bool> jsonOutputWanted(const ParsedArgs& args) {
    const std::string* output = args.value("output");
    if (!output || *output == "table") return false;
    if (*output == "json") return true;
    return Error{"unsupported output format \"" + *output + "\" for -o (use table or json)"};
}

namespace {

// Messages quote files and servers: nothing in them may drive the terminal.
void printMessage(std::string_view prefix, std::string_view message) {
    const std::string shown = visibleText(message, true);
    std::fprintf(stderr, "%.*s%s\n", static_cast<int>(prefix.size()), prefix.data(), shown.c_str());
}

} // namespace

int usageError(std::string_view message) {
    printMessage("topodeckctl: error: ", message);
    return kExitUsage;
}

int runtimeError(std::string_view message) {
    printMessage("topodeckctl: error: ", message);
    return kExitFailure;
}

void printWarning(std::string_view message) {
    printMessage("warning: ", message);
}

} // namespace topodeck::cli
