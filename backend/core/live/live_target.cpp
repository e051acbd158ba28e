#include "core/live/live_target.h"

#include "core/text/url_text.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace topodeck {

std::string describeByteSize(std::size_t bytes) {
    constexpr std::size_t kKiB = 1024;
    if (bytes == 0) return "0 bytes";
    if (bytes % (kKiB * kKiB * kKiB) == 0) return std::to_string(bytes / (kKiB * kKiB * kKiB)) + " GiB";
    if (bytes % (kKiB * kKiB) == 0) return std::to_string(bytes / (kKiB * kKiB)) + " MiB";
    if (bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::optional<std::size_t> parseByteSize(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    std::size_t digits = 0;
    std::size_t value = 0;
    constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
    for (; digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])); ++digits) {
        const std::size_t digit = static_cast<std::size_t>(text[digits] - '0');
        if (value > (kMax - digit) / 10) return std::nullopt;
        value = value * 10 + digit;
    }
    if (digits == 0) return std::nullopt;
    std::string unit;
    for (const char c : text.substr(digits))
        if (!std::isspace(static_cast<unsigned char>(c))) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    int shift = 0;
    if (unit.empty() || unit == "b") {
        shift = 0;
    } else if (unit == "k" || unit == "kib") {
        shift = 10;
    } else if (unit == "m" || unit == "mib") {
        shift = 20;
    } else if (unit == "g" || unit == "gib") {
        shift = 30;
    } else {
        return std::nullopt;
    }
    if (value > (kMax >> shift)) return std::nullopt;
    return value << shift;
}

std::string raiseLimitHint(std::string_view variable, std::size_t limit) {
    std::string example = describeByteSize(limit > std::numeric_limits<std::size_t>::max() / 2 ? limit : 2 * limit);
    if (example.ends_with(" bytes")) example.resize(example.size() - 6);
    example.erase(std::remove(example.begin(), example.end(), ' '), example.end());
    const std::string name(variable);
    return "; raise it with " + name + " (e.g. " + name + '=' + example + ')';
}

ReadLimits ReadLimits::fromEnvironment() {
    ReadLimits limits;
    const auto apply = [](const char* variable, std::size_t& limit) {
        const char* value = std::getenv(variable);
        if (!value || !*value) return;
        const std::optional<std::size_t> parsed = parseByteSize(value);
        if (parsed && *parsed > 0)
            limit = *parsed;
        else
            spdlog::warn("{}=\"{}\" is not a size (such as 512MiB); keeping {}", variable, value, describeByteSize(limit));
    };
    apply(kMaxKubeResponseVariable, limits.kubeResponse);
    apply(kMaxKubeEventVariable, limits.kubeEvent);
    apply(kMaxSlurmReplyVariable, limits.slurmReply);
    apply(kMaxCredentialOutputVariable, limits.credentialOutput);
    return limits;
}

Result<SlurmTarget> SlurmTarget::fromArgument(std::string_view argument) {
    SlurmTarget target;
    if (argument == "cli") return target;
    if (argument.starts_with("http://") || argument.starts_with("https://") || argument.starts_with("unix:")) {
        if (argument == "unix:" || argument == "http://" || argument == "https://")
            return Error{"--slurm " + std::string(argument) + ": the URL has no host or socket path"};
        target.kind = Kind::Rest;
        target.url = std::string(argument);
        return target;
    }
    return Error{"--slurm wants \"cli\" (the Slurm commands on this machine) or slurmrestd's URL "
                 "(http://host:6820, https://..., unix:/path/to/slurmrestd.sock), not \"" +
                 std::string(argument) + "\""};
}

std::string SlurmTarget::describe() const {
    if (kind == Kind::Rest) return "slurmrestd " + redactUrl(url);
    return slurmConf.empty() ? std::string("Slurm CLI") : "Slurm CLI (SLURM_CONF=" + slurmConf + ")";
}

} // namespace topodeck
