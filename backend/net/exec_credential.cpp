#include "net/exec_credential.h"

#include "core/text/json_writer.h"
#include "core/text/text_format.h"
#include "net/child_process.h"

#include <simdjson.h>

#include <vector>

namespace topodeck {

namespace {

constexpr std::size_t kStderrTailLines = 3;

// days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool digits(std::string_view text, std::size_t at, std::size_t count, int& out) {
    if (at + count > text.size()) return false;
    out = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        out = out * 10 + (text[i] - '0');
    }
    return true;
}

} // namespace

std::optional<std::chrono::system_clock::time_point> parseRfc3339(std::string_view text) {
    int year, month, day, hour, minute, second;
    if (!digits(text, 0, 4, year) || text.size() < 20 || text[4] != '-' || !digits(text, 5, 2, month) ||
        text[7] != '-' || !digits(text, 8, 2, day) || (text[10] != 'T' && text[10] != 't') ||
        !digits(text, 11, 2, hour) || text[13] != ':' || !digits(text, 14, 2, minute) || text[16] != ':' ||
        !digits(text, 17, 2, second))
        return std::nullopt;
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
    if (day < 1 || day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return std::nullopt;
    std::size_t at = 19;
    std::int64_t nanos = 0;
    if (at < text.size() && text[at] == '.') {
        std::int64_t scale = 100000000;
        ++at;
        const std::size_t start = at;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            nanos += (text[at] - '0') * scale;
            scale /= 10;
            ++at;
        }
        if (at == start) return std::nullopt;
    }
    std::int64_t offsetSeconds = 0;
    if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
        ++at;
    } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
        int offsetHours, offsetMinutes;
        if (!digits(text, at + 1, 2, offsetHours) || at + 3 >= text.size() || text[at + 3] != ':' ||
            !digits(text, at + 4, 2, offsetMinutes) || offsetHours > 23 || offsetMinutes > 59)
            return std::nullopt;
        offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (text[at] == '-' ? -1 : 1);
        at += 6;
    } else {
        return std::nullopt;
    }
    if (at != text.size()) return std::nullopt;
    const std::int64_t days = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds;
    // The clock counts nanoseconds in 64 bits (1677 to 2262): a time beyond is its first or last
    // instant ("9999-12-31T23:59:59Z" stays valid for as long as the process runs).
    using Clock = std::chrono::system_clock;
    const std::int64_t limit = std::chrono::duration_cast<std::chrono::seconds>(Clock::duration::max()).count() - 1;
    if (seconds >= limit) return Clock::time_point::max();
    if (seconds <= -limit) return Clock::time_point::min();
    return std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::seconds(seconds) +
                                                                        std::chrono::nanoseconds(nanos)));
}

Result<ExecCredential> parseExecCredential(std::string_view json, std::string_view expectedApiVersion) {
    if (json.empty()) return Error{"its output is empty (no ExecCredential)"};
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.parse(json.data(), json.size()).get(root))
        return Error{std::string("its output is not JSON: ") + simdjson::error_message(error)};
    if (!root.is_object()) return Error{"its output is not an ExecCredential object"};
    std::string_view kind, apiVersion;
    if (root["kind"].get(kind) != simdjson::SUCCESS) kind = {};
    if (root["apiVersion"].get(apiVersion) != simdjson::SUCCESS) apiVersion = {};
    if (kind != "ExecCredential")
        return Error{"its output is not an ExecCredential (kind " + inQuotes(kind) + ")"};
    if (apiVersion != expectedApiVersion)
        return Error{"it is configured for " + std::string(expectedApiVersion) + " but returned " +
                     (apiVersion.empty() ? std::string("no apiVersion") : std::string(apiVersion))};
    simdjson::dom::object status;
    if (root["status"].get(status)) return Error{"its ExecCredential has no status"};
    ExecCredential credential;
    std::string_view text;
    if (!status["token"].get(text)) credential.token = text;
    if (!status["clientCertificateData"].get(text)) credential.clientCertificateData = text;
    if (!status["clientKeyData"].get(text)) credential.clientKeyData = text;
    if (!status["expirationTimestamp"].get(text) && !text.empty()) {
        credential.expiration = parseRfc3339(text);
        if (!credential.expiration) return Error{"its expirationTimestamp " + inQuotes(text) + " is not an RFC 3339 time"};
    }
    if (credential.token.empty() && credential.clientCertificateData.empty() && credential.clientKeyData.empty())
        return Error{"it returned neither a token nor a client certificate and key"};
    if (credential.clientCertificateData.empty() != credential.clientKeyData.empty())
        return Error{"it returned only one of clientCertificateData and clientKeyData"};
    return credential;
}

Result<ExecCredential> runExecPlugin(const KubeExecConfig& exec, std::string_view clusterInfo,
                                     const ExecEnvironment& environment) {
    const std::string plugin = "exec plugin " + inQuotes(exec.command);
    const bool always = exec.interactiveMode == "Always";
    const bool interactive = always || (exec.interactiveMode == "IfAvailable" && environment.terminalAvailable);
    if (always && !environment.terminalAvailable)
        return Error{plugin + ": interactiveMode is Always, but standard input is not a terminal"};

    std::string execInfo;
    JsonWriter json(execInfo);
    json.beginObject().field("apiVersion", exec.apiVersion).field("kind", "ExecCredential");
    json.key("spec").beginObject().field("interactive", interactive);
    if (!clusterInfo.empty()) json.key("cluster").raw(clusterInfo);
    json.endObject().endObject();

    ChildProcessRequest request;
    request.argv = {exec.command};
    request.argv.insert(request.argv.end(), exec.args.begin(), exec.args.end());
    request.setEnvironment = exec.env;
    request.setEnvironment.emplace_back("KUBERNETES_EXEC_INFO", execInfo);
    request.inheritStdin = interactive;
    request.timeout = environment.timeout;
    request.maxStdout = environment.maxOutput;
    request.limitVariable = kMaxCredentialOutputVariable;
    request.cancelled = environment.cancelled;
    request.onStderrLine = environment.onMessage;
    const ChildProcessResult ran = runChildProcess(request);
    using Outcome = ChildProcessResult::Outcome;
    switch (ran.outcome) {
    case Outcome::Exited:
        if (ran.exitCode == 0) break;
        return Error{plugin + " failed with exit status " + std::to_string(ran.exitCode) + ran.stderrTail(kStderrTailLines)};
    case Outcome::Signalled:
        return Error{plugin + " " + ran.describe(kStderrTailLines)};
    case Outcome::NotFound: {
        std::string message = plugin + ": executable not found (it is a client-go credential plugin that is not installed)";
        if (!exec.installHint.empty()) message += "\n" + exec.installHint;
        return Error{std::move(message)};
    }
    case Outcome::CannotRun:
    case Outcome::TimedOut:
    case Outcome::Cancelled:
    case Outcome::OutputTooLarge:
        return Error{plugin + ": " + ran.describe()};
    }
    const std::string& stdoutText = ran.out;
    Result<ExecCredential> credential = parseExecCredential(stdoutText, exec.apiVersion);
    if (!credential) return Error{plugin + ": " + credential.error().message};
    return credential;
}

} // namespace topodeck
