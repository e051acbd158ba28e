#pragma once

#include "core/result.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace topodeck::cli {

bool stdoutIsTerminal();
// https://no-color.org: NO_COLOR set to anything but the empty string.
bool noColorRequested();

Result<std::string> readAll(std::FILE* stream);
void writeStdout(std::string_view text);

// The text as one screen update: the first frame clears the screen, later ones overwrite in place
// (erasing each line's tail and whatever is below) so a watch does not flicker.
std::string redrawScreen(std::string_view text, bool firstFrame);

} // namespace topodeck::cli
