#pragma once

#include "core/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// A semantic version (https://semver.org, 2.0.0), as Kubernetes reads DRA version attributes and
// CEL's semver() reads its argument (github.com/blang/semver/v4 Parse): MAJOR.MINOR.PATCH, each a
// decimal number without leading zeros that fits 64 bits, then an optional pre-release
// ("-rc.1": dot-separated identifiers of [0-9A-Za-z-], numeric ones without leading zeros) and
// optional build metadata ("+build.5", kept but ignored by precedence and equality).
class Version {
public:
    // One pre-release identifier: numeric ("1") or alphanumeric ("rc").
    struct PreRelease {
        bool numeric = false;
        std::uint64_t number = 0;
        std::string text; // the alphanumeric identifier; empty for a numeric one

        friend bool operator==(const PreRelease&, const PreRelease&) = default;
    };

    Version() = default;
    Version(std::uint64_t major, std::uint64_t minor, std::uint64_t patch)
        : m_major(major), m_minor(minor), m_patch(patch) {}
    Version(const Version& other);
    Version& operator=(const Version& other);
    Version(Version&&) noexcept = default;
    Version& operator=(Version&&) noexcept = default;
    ~Version() = default;

    // Strict semver 2.0.0; an error names what is wrong and quotes the input.
    static Result<Version> parse(std::string_view text);
    // Kubernetes' normalising parse (semver(s, true)): a leading "v" is dropped, leading zeros of
    // the first three parts are removed and a missing minor or patch becomes 0 ("v1.02" ->
    // "1.2.0"); a shortened version may not carry a pre-release or build.
    static Result<Version> parseNormalized(std::string_view text);

    std::uint64_t major() const { return m_major; }
    std::uint64_t minor() const { return m_minor; }
    std::uint64_t patch() const { return m_patch; }
    const std::vector<PreRelease>& preRelease() const;
    const std::vector<std::string>& build() const;

    // Precedence (semver section 11): -1, 0 or 1. Build metadata does not count.
    int compare(const Version& other) const;
    // Equal precedence: "1.0.0+a" == "1.0.0+b", as Kubernetes' CEL Semver compares.
    friend bool operator==(const Version& a, const Version& b) { return a.compare(b) == 0; }

    // The canonical text: "1.2.3-rc.1+build.5".
    std::string toString() const;

private:
    static std::optional<Version> parseStrict(std::string_view text, std::string& reason);

    // What few versions carry, held apart so that a version is 32 bytes: a ResourceSlice holds
    // several per device, hundreds of thousands in a cluster.
    struct Suffix {
        std::vector<PreRelease> pre;
        std::vector<std::string> build;
    };
    Suffix& suffix();

    std::uint64_t m_major = 0;
    std::uint64_t m_minor = 0;
    std::uint64_t m_patch = 0;
    std::unique_ptr<Suffix> m_suffix; // null: no pre-release and no build metadata
};

} // namespace topodeck
