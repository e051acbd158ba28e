#pragma once

#include "core/result.h"

#include <string>
#include <string_view>

namespace topodeck {

// The whole file, as bytes. Errors: "cannot read PATH: <reason>".
Result<std::string> readTextFile(const std::string& path);
// Written beside the target and renamed over it, so a failed or interrupted write never leaves a
// half file where a good one was. Errors: "cannot write PATH: <reason>".
Status writeFileAtomically(const std::string& path, std::string_view text);
// A token (or namespace) file's content without surrounding whitespace and newlines.
Result<std::string> readTokenFile(const std::string& path);

} // namespace topodeck
