#pragma once

#include "core/result.h"

#include <string>
#include <string_view>

namespace topodeck {

// Standard base64 (RFC 4648 §4), as kubeconfig *-data fields hold it. Decoding skips line breaks
// (some tools wrap) and names the offending offset on error, as Go's encoding/base64 does.
Result<std::string> decodeBase64(std::string_view text);
std::string encodeBase64(std::string_view bytes);

} // namespace topodeck
