#include "net/child_process.h"

#include "core/live_target.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <thread>
#include <utility>

extern char** environ;

namespace topodeck {

namespace {

constexpr std::size_t kMaxStderr = 64 * 1024;

class Pipe {
public:
    Pipe() {
        if (::pipe2(m_fds, O_CLOEXEC) != 0) m_fds[0] = m_fds[1] = -1;
    }
    ~Pipe() {
        closeRead();
        closeWrite();
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
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

std::vector<std::string> childEnvironment(const ChildProcessRequest& request) {
    std::map<std::string, std::string> entries;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const auto eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        entries[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
    }
    for (const auto& [name, value] : request.setEnvironment) entries[name] = value;
    for (const std::string& name : request.unsetEnvironment) entries.erase(name);
    std::vector<std::string> out;
    out.reserve(entries.size());
    for (const auto& [name, value] : entries) out.push_back(name + '=' + value);
    return out;
}

bool stopRequested(const ChildProcessRequest& request) {
    return request.cancelled && request.cancelled->load();
}

} // namespace

std::string describeDuration(std::chrono::milliseconds duration) {
    if (duration < std::chrono::seconds(1)) return std::to_string(duration.count()) + " ms";
    return std::to_string(duration.count() / 1000) + " s";
}

std::string ChildProcessResult::describe(std::size_t stderrLines) const {
    std::string text;
    switch (outcome) {
    case Outcome::Exited:
        text = "exited with status " + std::to_string(exitCode);
        break;
    case Outcome::Signalled:
        text = "was killed by signal " + std::to_string(signal);
        break;
    case Outcome::NotFound:
        return "not found";
    case Outcome::CannotRun:
        return "cannot run it: " + failure;
    case Outcome::TimedOut:
    case Outcome::Cancelled:
    case Outcome::OutputTooLarge:
        return failure;
    }
    return text + stderrTail(stderrLines);
}

std::string ChildProcessResult::stderrTail(std::size_t count) const {
    std::vector<std::string_view> lines;
    std::string_view rest = err;
    while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.empty()) lines.push_back(line);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
    if (lines.size() > count) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(count));
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        text += i == 0 ? ": " : " / ";
        text += lines[i];
    }
    return text;
}

ChildProcessResult runChildProcess(const ChildProcessRequest& request) {
    ChildProcessResult result;
    if (request.argv.empty()) {
        result.failure = "no command";
        return result;
    }
    std::vector<std::string> envStrings = childEnvironment(request);
    std::vector<char*> envp;
    for (std::string& entry : envStrings) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> argStrings = request.argv;
    std::vector<char*> argv;
    for (std::string& arg : argStrings) argv.push_back(arg.data());
    argv.push_back(nullptr);

    Pipe out, err;
    if (!out.ok() || !err.ok()) {
        result.failure = std::string("cannot create pipes: ") + std::strerror(errno);
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.write(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write(), STDERR_FILENO);
    if (!request.inheritStdin) posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // A process that reads the terminal must stay in its foreground group.
    const bool ownGroup = !request.inheritStdin;
    if (ownGroup) {
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
    }
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argStrings.front().c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        result.outcome = spawned == ENOENT ? ChildProcessResult::Outcome::NotFound : ChildProcessResult::Outcome::CannotRun;
        result.failure = std::strerror(spawned);
        return result;
    }
    out.closeWrite();
    err.closeWrite();

    std::string stderrPending;
    const auto takeStderrLine = [&](std::string line) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (request.onStderrLine) request.onStderrLine(line);
    };
    const auto deadline = std::chrono::steady_clock::now() + request.timeout;
    std::optional<ChildProcessResult::Outcome> failed;
    const auto checkStop = [&] {
        if (stopRequested(request)) {
            failed = ChildProcessResult::Outcome::Cancelled;
            result.failure = "cancelled";
        } else if (std::chrono::steady_clock::now() >= deadline) {
            failed = ChildProcessResult::Outcome::TimedOut;
            result.failure = "no answer after " + describeDuration(request.timeout);
        }
        return failed.has_value();
    };
    bool outOpen = true, errOpen = true;
    std::vector<char> buffer(64 * 1024);
    while ((outOpen || errOpen) && !checkStop()) {
        pollfd fds[2] = {{outOpen ? out.read() : -1, POLLIN, 0}, {errOpen ? err.read() : -1, POLLIN, 0}};
        if (::poll(fds, 2, 100) < 0 && errno != EINTR) {
            failed = ChildProcessResult::Outcome::CannotRun;
            result.failure = std::string("poll failed: ") + std::strerror(errno);
            break;
        }
        if (outOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(out.read(), buffer.data(), buffer.size());
            if (n > 0) {
                // What would pass the limit is not kept: memory stays within it.
                if (static_cast<std::size_t>(n) > request.maxStdout - result.out.size()) {
                    failed = ChildProcessResult::Outcome::OutputTooLarge;
                    result.failure = "printed more than the limit of " + describeByteSize(request.maxStdout) +
                                     " and was stopped" +
                                     (request.limitVariable.empty() ? std::string()
                                                                    : raiseLimitHint(request.limitVariable, request.maxStdout));
                    break;
                }
                result.out.append(buffer.data(), static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                outOpen = false;
            }
        }
        if (errOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(err.read(), buffer.data(), buffer.size());
            if (n > 0) {
                const std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
                if (result.err.size() < kMaxStderr) result.err.append(chunk.substr(0, kMaxStderr - result.err.size()));
                stderrPending.append(chunk);
                for (auto nl = stderrPending.find('\n'); nl != std::string::npos; nl = stderrPending.find('\n')) {
                    takeStderrLine(stderrPending.substr(0, nl));
                    stderrPending.erase(0, nl + 1);
                }
                // A line without end is handed on in pieces, not gathered without bound.
                if (stderrPending.size() > kMaxStderr) takeStderrLine(std::exchange(stderrPending, std::string()));
            } else if (n == 0 || errno != EINTR) {
                errOpen = false;
            }
        }
    }
    if (!stderrPending.empty()) takeStderrLine(std::move(stderrPending));
    // Its output closed is not its end: a program may close it and hang on. The deadline and a
    // cancel still apply while it is waited for.
    int status = 0;
    while (!failed) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) break;
        if (!checkStop()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (failed) {
        ::kill(ownGroup ? -pid : pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        result.outcome = *failed;
        return result;
    }
    if (WIFSIGNALED(status)) {
        result.outcome = ChildProcessResult::Outcome::Signalled;
        result.signal = WTERMSIG(status);
    } else {
        result.outcome = ChildProcessResult::Outcome::Exited;
        result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return result;
}

} // namespace topodeck
