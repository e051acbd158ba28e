#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace topodeck {

// Changes whenever the file is rewritten or replaced (mtime with nanoseconds, and size), so a
// token or topology file is read again only when it changed; -1 when it cannot be stat()ed.
inline std::int64_t fileStamp(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return -1;
    return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec + info.st_size;
}

} // namespace topodeck
