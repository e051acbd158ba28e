#pragma once

#include <string_view>

namespace topodeck {

// "rack-2" < "rack-10": digit runs compare by value. Used wherever people read sorted names.
bool naturalLess(std::string_view a, std::string_view b);

} // namespace topodeck
