#include "net/exec_credential.h"

#include "core/json_text.h"

#include <simdjson.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <thread>
#include <vector>

extern char** environ;

namespace topodeck {

namespace {

constexpr std::size_t kMaxStdout = 1 << 20;
constexpr std::size_t kStderrTailLines = 3;

std::string describeDuration(std::chrono::milliseconds duration) {
    if (duration < std::chrono::seconds(1)) return std::to_string(duration.count()) + " ms";
    return std::to_string(duration.count() / 1000) + " s";
}

std::string inQuotes(std::string_view text) {
    return '"' + std::string(text) + '"';
}

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

class Pipe {
public:
    Pipe() {
        if (::pipe2(m_fds, O_CLOEXEC) != 0) m_fds[0] = m_fds[1] = -1;
    }
    ~Pipe() {
        closeRead();
        closeWrite();
    }
    bool ok() const { return m_fds[0] >= 0; }
    int read() const { return m_fds[0]; }
    int write() const { return m_fds[1]; }
    void closeRead() { closeFd(m_fds[0]); }
    void closeWrite() { closeFd(m_fds[1]); }

private:
    static void closeFd(int& fd) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    int m_fds[2] = {-1, -1};
};

// The child's environment: ours, then the kubeconfig's entries over it, then the request.
std::vector<std::string> childEnvironment(const KubeExecConfig& exec, const std::string& execInfo) {
    std::map<std::string, std::string> entries;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const auto eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        entries[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
    }
    for (const auto& [name, value] : exec.env) entries[name] = value;
    entries["KUBERNETES_EXEC_INFO"] = execInfo;
    std::vector<std::string> out;
    out.reserve(entries.size());
    for (const auto& [name, value] : entries) out.push_back(name + '=' + value);
    return out;
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
    return std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::seconds(seconds) +
                                                                        std::chrono::nanoseconds(nanos)));
}

Result<ExecCredential> parseExecCredential(std::string_view json, std::string_view expectedApiVersion) {
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

    std::string execInfo = R"({"apiVersion":)";
    appendJsonString(execInfo, exec.apiVersion);
    execInfo += R"(,"kind":"ExecCredential","spec":{"interactive":)";
    execInfo += interactive ? "true" : "false";
    if (!clusterInfo.empty()) {
        execInfo += R"(,"cluster":)";
        execInfo += clusterInfo;
    }
    execInfo += "}}";

    std::vector<std::string> envStrings = childEnvironment(exec, execInfo);
    std::vector<char*> envp;
    for (std::string& entry : envStrings) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> argStrings{exec.command};
    argStrings.insert(argStrings.end(), exec.args.begin(), exec.args.end());
    std::vector<char*> argv;
    for (std::string& arg : argStrings) argv.push_back(arg.data());
    argv.push_back(nullptr);

    Pipe out, err;
    if (!out.ok() || !err.ok()) return Error{plugin + ": cannot create pipes: " + std::strerror(errno)};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.write(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write(), STDERR_FILENO);
    if (!interactive) posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // A group of its own, so a timeout stops whatever it started too. Not when interactive: it
    // must stay in the terminal's foreground group to read from it.
    if (!interactive) {
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
    }
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, exec.command.c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        std::string message = plugin + ": cannot run it: " + std::strerror(spawned);
        if (spawned == ENOENT) {
            message = plugin + ": executable not found (it is a client-go credential plugin that is not installed)";
            if (!exec.installHint.empty()) message += "\n" + exec.installHint;
        }
        return Error{std::move(message)};
    }
    out.closeWrite();
    err.closeWrite();

    std::string stdoutText;
    std::string stderrPending;
    std::vector<std::string> stderrTail;
    auto takeStderrLine = [&](std::string line) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (environment.onMessage) environment.onMessage(line);
        stderrTail.push_back(std::move(line));
        if (stderrTail.size() > kStderrTailLines) stderrTail.erase(stderrTail.begin());
    };
    const auto deadline = std::chrono::steady_clock::now() + environment.timeout;
    std::string failure;
    bool outOpen = true, errOpen = true;
    while (outOpen || errOpen) {
        if (environment.cancelled && environment.cancelled->load()) {
            failure = "cancelled";
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            failure = "no answer after " + describeDuration(environment.timeout);
            break;
        }
        pollfd fds[2] = {{outOpen ? out.read() : -1, POLLIN, 0}, {errOpen ? err.read() : -1, POLLIN, 0}};
        if (::poll(fds, 2, 100) < 0 && errno != EINTR) {
            failure = std::string("poll failed: ") + std::strerror(errno);
            break;
        }
        char buffer[4096];
        if (outOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(out.read(), buffer, sizeof buffer);
            if (n > 0) {
                stdoutText.append(buffer, static_cast<std::size_t>(n));
                if (stdoutText.size() > kMaxStdout) {
                    failure = "its output is larger than 1 MiB";
                    break;
                }
            } else if (n == 0 || errno != EINTR) {
                outOpen = false;
            }
        }
        if (errOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(err.read(), buffer, sizeof buffer);
            if (n > 0) {
                stderrPending.append(buffer, static_cast<std::size_t>(n));
                for (auto nl = stderrPending.find('\n'); nl != std::string::npos; nl = stderrPending.find('\n')) {
                    takeStderrLine(stderrPending.substr(0, nl));
                    stderrPending.erase(0, nl + 1);
                }
            } else if (n == 0 || errno != EINTR) {
                errOpen = false;
            }
        }
    }
    if (!stderrPending.empty()) takeStderrLine(std::move(stderrPending));
    // Its output closed is not its end: a plugin may close it and hang on. The deadline and a
    // cancel still apply while it is waited for.
    int status = 0;
    while (failure.empty()) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) break;
        if (environment.cancelled && environment.cancelled->load()) failure = "cancelled";
        else if (std::chrono::steady_clock::now() >= deadline)
            failure = "no answer after " + describeDuration(environment.timeout);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!failure.empty()) {
        ::kill(interactive ? pid : -pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return Error{plugin + ": " + failure};
    }

    auto withStderr = [&](std::string message) {
        if (stderrTail.empty()) return message;
        message += ": ";
        for (std::size_t i = 0; i < stderrTail.size(); ++i) message += (i > 0 ? " / " : "") + stderrTail[i];
        return message;
    };
    if (WIFSIGNALED(status)) return Error{withStderr(plugin + " was killed by signal " + std::to_string(WTERMSIG(status)))};
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        return Error{withStderr(plugin + " failed with exit status " + std::to_string(WEXITSTATUS(status)))};
    Result<ExecCredential> credential = parseExecCredential(stdoutText, exec.apiVersion);
    if (!credential) return Error{plugin + ": " + credential.error().message};
    return credential;
}

} // namespace topodeck
