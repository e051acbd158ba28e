#include "layering.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <string_view>

namespace topodeck::structure {
namespace fs = std::filesystem;

namespace {

enum class Layer {
    CoreRoot,
    Text,
    Values,
    Cel,
    Model,
    Live,
    Formats,
    Topology,
    Changes,
    Demo,
    Requests,
    Engines,
    Reports,
    UseCases,
    Net,
    Rpc,
    Session,
    Models,
    Views,
    Translations,
    App,
};

struct LayerInfo {
    Layer layer;
    std::string_view folder; // in the tree, with a trailing '/'
    std::string_view prefix; // how its headers are included, with a trailing '/'
};

// Longest folder first, so backend/core/placement/engines/ wins over backend/core/. Two folders
// that read each other's headers share a layer (formats and slurm; changes and exports; what-if
// and reports).
constexpr std::array kLayers = {
    LayerInfo{Layer::Requests, "backend/core/placement/requests/", "core/placement/requests/"},
    LayerInfo{Layer::Engines, "backend/core/placement/engines/", "core/placement/engines/"},
    LayerInfo{Layer::Reports, "backend/core/placement/whatif/", "core/placement/whatif/"},
    LayerInfo{Layer::Reports, "backend/core/placement/reports/", "core/placement/reports/"},
    LayerInfo{Layer::Text, "backend/core/text/", "core/text/"},
    LayerInfo{Layer::Values, "backend/core/values/", "core/values/"},
    LayerInfo{Layer::Cel, "backend/core/cel/", "core/cel/"},
    LayerInfo{Layer::Model, "backend/core/model/", "core/model/"},
    LayerInfo{Layer::Live, "backend/core/live/", "core/live/"},
    LayerInfo{Layer::Formats, "backend/core/formats/", "core/formats/"},
    LayerInfo{Layer::Formats, "backend/core/slurm/", "core/slurm/"},
    LayerInfo{Layer::Topology, "backend/core/topology/", "core/topology/"},
    LayerInfo{Layer::Changes, "backend/core/changes/", "core/changes/"},
    LayerInfo{Layer::Changes, "backend/core/exports/", "core/exports/"},
    LayerInfo{Layer::Demo, "backend/core/demo/", "core/demo/"},
    // Anything else in core or placement (result.h; a file put at a folder's top by mistake).
    LayerInfo{Layer::CoreRoot, "backend/core/", "core/"},
    LayerInfo{Layer::UseCases, "backend/usecases/", "usecases/"},
    LayerInfo{Layer::Net, "backend/net/", "net/"},
    LayerInfo{Layer::Rpc, "backend/rpc/", "rpc/"},
    LayerInfo{Layer::Session, "backend/session/", "session/"},
    LayerInfo{Layer::Models, "models/", "models/"},
    LayerInfo{Layer::Views, "views/", "views/"},
    LayerInfo{Layer::Translations, "translations/", "translations/"},
    LayerInfo{Layer::App, "app/", "app/"},
};

enum class QtModule { None, Core, Gui, Widgets, Other };

// What each layer may include: project layers by their include prefix, and Qt modules.
struct Rule {
    Layer layer;
    std::vector<Layer> layers;
    std::vector<QtModule> qt;
    std::string_view text;
};

template <class... More> std::vector<Layer> with(std::vector<Layer> layers, More... more) {
    (layers.push_back(more), ...);
    return layers;
}

const std::vector<Rule>& rules() {
    using L = Layer;
    using Q = QtModule;
    static const std::vector<Layer> core = {L::CoreRoot, L::Text,    L::Values,   L::Cel,     L::Model,
                                            L::Live,     L::Formats, L::Topology, L::Changes, L::Demo};
    static const std::vector<Layer> placement = with(core, L::Requests, L::Engines, L::Reports);
    static const std::vector<Rule> table = {
        // Inside core, lowest first: each folder reads only what is below it.
        {L::CoreRoot,
         {L::CoreRoot},
         {},
         "core's own top (result.h) includes nothing else of the project; a new file goes into a folder by concern"},
        {L::Text, {L::CoreRoot, L::Text}, {}, "core/text includes only core/text: it is below the model"},
        {L::Values, {L::CoreRoot, L::Text, L::Values}, {}, "core/values includes only core/text and core/values"},
        {L::Cel,
         {L::CoreRoot, L::Text, L::Values, L::Cel},
         {},
         "core/cel includes only core/text, core/values and core/cel"},
        {L::Model,
         {L::CoreRoot, L::Text, L::Values, L::Cel, L::Model},
         {},
         "core/model includes only core/text, core/values, core/cel and core/model"},
        {L::Live, {L::CoreRoot, L::Text, L::Live}, {}, "core/live includes only core/text and core/live"},
        {L::Formats,
         {L::CoreRoot, L::Text, L::Values, L::Cel, L::Model, L::Formats},
         {},
         "core/formats and core/slurm include only core/text, core/model and each other: readers know no index"},
        {L::Topology,
         {L::CoreRoot, L::Text, L::Values, L::Cel, L::Model, L::Formats, L::Topology},
         {},
         "core/topology includes no changes, exports, demo or live"},
        {L::Changes,
         {L::CoreRoot, L::Text, L::Values, L::Cel, L::Model, L::Live, L::Formats, L::Topology, L::Changes},
         {},
         "core/changes and core/exports include no demo and no placement"},
        {L::Demo,
         {L::CoreRoot, L::Text, L::Values, L::Cel, L::Model, L::Demo},
         {},
         "core/demo includes only core/text and core/model"},
        {L::Requests, with(core, L::Requests), {}, "placement/requests include only core and requests: no engine"},
        {L::Engines,
         with(core, L::Requests, L::Engines),
         {},
         "placement/engines include only core, requests and engines: no reports, no what-if steps"},
        {L::Reports, placement, {}, "placement includes only core, placement and non-Qt headers"},
        {L::UseCases,
         with(placement, L::UseCases),
         {},
         "backend/usecases include only core, placement and usecases: no Qt, no network, no session"},
        {L::Net, with(core, L::Net), {}, "backend/net includes only core, net and non-Qt headers"},
        // The daemon and the remote source are Qt-free: the daemon runs without Qt, and the
        // session opens a daemon as one more source.
        {L::Rpc,
         with(placement, L::UseCases, L::Net, L::Rpc),
         {},
         "backend/rpc includes only core, placement, usecases, net and rpc: no Qt, no session"},
        {L::Session,
         with(placement, L::UseCases, L::Net, L::Rpc, L::Session),
         {Q::Core},
         "backend/session includes no models, views or app, and of Qt only QtCore"},
        {L::Models,
         with(placement, L::UseCases, L::Session, L::Models),
         {Q::Core, Q::Gui},
         "models include no views, no net, no app and no widgets"},
        {L::Views,
         with(placement, L::UseCases, L::Session, L::Models, L::Views),
         {Q::Core, Q::Gui, Q::Widgets, Q::Other},
         "views include no net and no app"},
        {L::Translations, {L::Translations}, {Q::Core}, "translations include only translations and QtCore"},
        {L::App,
         with(placement, L::UseCases, L::Net, L::Rpc, L::Session, L::Models, L::Views, L::Translations, L::App),
         {Q::Core, Q::Gui, Q::Widgets, Q::Other},
         ""},
    };
    return table;
}

const Rule& ruleFor(Layer layer) {
    return *std::find_if(rules().begin(), rules().end(), [layer](const Rule& rule) { return rule.layer == layer; });
}

std::optional<Layer> layerOfFile(std::string_view relative) {
    for (const LayerInfo& info : kLayers)
        if (relative.starts_with(info.folder)) return info.layer;
    return std::nullopt;
}

std::optional<Layer> layerOfInclude(std::string_view included) {
    for (const LayerInfo& info : kLayers)
        if (included.starts_with(info.prefix)) return info.layer;
    return std::nullopt;
}

QtModule qtModuleOf(std::string_view header, const fs::path& qtHeaders) {
    if (!header.starts_with('Q')) return QtModule::None;
    const auto slash = header.find('/');
    if (slash != std::string_view::npos) { // <QtWidgets/QLabel>
        const std::string_view module = header.substr(0, slash);
        if (module == "QtCore") return QtModule::Core;
        if (module == "QtGui") return QtModule::Gui;
        if (module == "QtWidgets") return QtModule::Widgets;
        return module.starts_with("Qt") ? QtModule::Other : QtModule::None;
    }
    std::error_code error;
    for (const auto& [folder, module] : {std::pair{"QtCore", QtModule::Core}, std::pair{"QtGui", QtModule::Gui},
                                         std::pair{"QtWidgets", QtModule::Widgets}})
        if (fs::exists(qtHeaders / folder / std::string(header), error)) return module;
    for (const auto& entry : fs::directory_iterator(qtHeaders, error))
        if (fs::exists(entry.path() / std::string(header), error)) return QtModule::Other;
    return QtModule::None; // not a Qt header (<QtTest> and such are modules, caught above)
}

std::vector<std::string> readLines(const fs::path& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
    return lines;
}

std::string relativeTo(const fs::path& path, const fs::path& root) {
    return path.lexically_relative(root).generic_string();
}

void checkIncludes(const fs::path& file, const fs::path& root, const fs::path& qtHeaders, Layer layer,
                   std::vector<Violation>& out) {
    static const std::regex include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    const std::string relative = relativeTo(file, root);
    const Rule& rule = ruleFor(layer);
    const std::vector<std::string> lines = readLines(file);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch match;
        if (!std::regex_search(lines[i], match, include)) continue;
        const std::string target = match[2].str();
        const std::string shown = "#include " + match[1].str() + target + (match[1] == "<" ? ">" : "\"");
        const auto report = [&](std::string text) {
            out.push_back({relative, static_cast<int>(i + 1), shown, std::move(text)});
        };
        if (match[1] == "<") {
            const QtModule module = qtModuleOf(target, qtHeaders);
            if (module != QtModule::None && std::find(rule.qt.begin(), rule.qt.end(), module) == rule.qt.end())
                report(std::string(rule.text));
            continue;
        }
        // A quoted include names a project header by its layer ("core/node.h"), or one beside the
        // including file (the app's own folders).
        std::optional<Layer> targetLayer = layerOfInclude(target);
        if (!targetLayer) {
            std::error_code error;
            const fs::path beside = file.parent_path() / target;
            if (fs::exists(beside, error)) targetLayer = layerOfFile(relativeTo(beside, root));
        }
        if (!targetLayer) {
            report("a quoted include names a project header: \"core/...\", \"net/...\", ... or one beside the file");
            continue;
        }
        if (*targetLayer == Layer::App && layer != Layer::App) {
            report("nothing includes app/");
            continue;
        }
        if (std::find(rule.layers.begin(), rule.layers.end(), *targetLayer) == rule.layers.end())
            report(std::string(rule.text));
    }
}

// The nearest CMakeLists.txt at or above the file's folder, up to the root.
std::optional<fs::path> owningCMakeLists(const fs::path& file, const fs::path& root) {
    std::error_code error;
    for (fs::path dir = file.parent_path();; dir = dir.parent_path()) {
        if (fs::exists(dir / "CMakeLists.txt", error)) return dir / "CMakeLists.txt";
        if (dir == root || dir == dir.parent_path()) break;
    }
    return std::nullopt;
}

void checkListed(const fs::path& file, const fs::path& root, std::vector<Violation>& out) {
    const std::optional<fs::path> cmake = owningCMakeLists(file, root);
    const std::string relative = relativeTo(file, root);
    if (!cmake) {
        out.push_back({relative, 0, "", "every source file is listed in a CMakeLists.txt"});
        return;
    }
    const std::string name = relativeTo(file, cmake->parent_path());
    std::ifstream in(*cmake);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    // The name as a whole word of the list: between blanks, parentheses or quotes.
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        const auto boundary = [](char c) {
            return c == ' ' || c == '\n' || c == '\t' || c == '(' || c == ')' || c == '"';
        };
        const bool startsWord = at == 0 || boundary(text[at - 1]);
        const bool endsWord = at + name.size() == text.size() || boundary(text[at + name.size()]);
        if (startsWord && endsWord) return;
    }
    out.push_back({relative, 0, "",
                   "every source file is listed in " + relativeTo(*cmake, root) +
                       " (a new file is a visible change of the build)"});
}

// The classes and structs a file defines at namespace scope outside any anonymous namespace, as
// "topodeck::SlurmJob" with their line. Our format puts them at column 0 and closes every
// namespace with "} // namespace ...".
std::vector<std::pair<std::string, int>> namespaceScopeClasses(const fs::path& file) {
    static const std::regex opens(R"(^\s*namespace\s*([\w:]*)\s*\{)");
    static const std::regex closes(R"(^\s*\}\s*//\s*namespace)");
    // A definition, not a declaration (no ';') nor a nested class defined outside (Outer::Inner).
    static const std::regex defines(R"(^(?:struct|class)\s+(\w+)(?!\w|::)[^;]*$)");
    std::vector<std::string> scopes; // "" for an anonymous namespace
    std::vector<std::pair<std::string, int>> out;
    const std::vector<std::string> lines = readLines(file);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch match;
        if (std::regex_search(lines[i], match, opens)) {
            scopes.push_back(match[1].str());
        } else if (std::regex_search(lines[i], closes)) {
            if (!scopes.empty()) scopes.pop_back();
        } else if (std::regex_search(lines[i], match, defines) &&
                   std::find(scopes.begin(), scopes.end(), std::string()) == scopes.end()) {
            std::string name;
            for (const std::string& scope : scopes) name += scope + "::";
            out.emplace_back(name + match[1].str(), static_cast<int>(i + 1));
        }
    }
    return out;
}

bool isSource(const fs::path& path) {
    return path.extension() == ".h" || path.extension() == ".cpp";
}

// A source of a test suite's program: tests/<suite>/..., where data, fuzz targets and benchmarks
// (one program a file) and the layering test itself do not count.
bool isSuiteSource(const std::string& relative) {
    static const std::regex suite(R"(^tests/(?!data/|fuzz/|bench/|structure/)[\w-]+/)");
    return std::regex_search(relative, suite);
}

} // namespace

std::string describe(const Violation& violation) {
    std::string text = violation.file;
    if (violation.line > 0) text += ':' + std::to_string(violation.line);
    text += ": ";
    if (!violation.what.empty()) text += violation.what + ": ";
    return text + violation.rule;
}

std::vector<Violation> checkTree(const fs::path& root, const fs::path& qtHeaders, const TreeLimits& limits) {
    std::vector<fs::path> sources;
    std::vector<fs::path> testSources; // the files of the test suites' programs (tests/<suite>/)
    std::vector<fs::path> cmakeFiles;
    std::error_code error;
    for (const char* top : {"backend", "models", "views", "translations", "app", "tests"}) {
        if (!fs::is_directory(root / top, error)) continue;
        for (auto it = fs::recursive_directory_iterator(root / top, error); it != fs::recursive_directory_iterator();
             it.increment(error)) {
            const fs::path& path = it->path();
            // Test data holds broken trees on purpose.
            if (it->is_directory(error) && path == root / "tests" / "data") it.disable_recursion_pending();
            if (!it->is_regular_file(error)) continue;
            if (path.filename() == "CMakeLists.txt")
                cmakeFiles.push_back(path);
            else if (std::string_view(top) != "tests" && isSource(path))
                sources.push_back(path);
            else if (isSource(path) && isSuiteSource(relativeTo(path, root)))
                testSources.push_back(path);
        }
    }
    if (fs::exists(root / "CMakeLists.txt", error)) cmakeFiles.push_back(root / "CMakeLists.txt");
    std::sort(sources.begin(), sources.end());
    std::sort(testSources.begin(), testSources.end());
    std::sort(cmakeFiles.begin(), cmakeFiles.end());

    std::vector<Violation> out;
    std::map<std::string, std::string> definedIn; // program and class name -> the first file defining it
    std::vector<Violation> twice;
    const auto checkDefinedOnce = [&](const fs::path& file, const std::string& program) {
        const std::string relative = relativeTo(file, root);
        for (const auto& [name, line] : namespaceScopeClasses(file)) {
            const auto [first, isNew] = definedIn.emplace(program + '|' + name, relative);
            if (!isNew && first->second != relative)
                twice.push_back({relative, line, name,
                                 "one class name in one namespace is defined once: " + first->second +
                                     " defines it too, and a program linking both breaks the one-definition rule"});
        }
    };
    // Each test suite is one program of its own (tests/<suite>/ and the support it links).
    for (const fs::path& file : testSources) {
        const std::string relative = relativeTo(file, root);
        checkDefinedOnce(file, relative.substr(0, relative.find('/', std::string_view("tests/").size())));
    }
    for (const fs::path& file : sources) {
        const std::string relative = relativeTo(file, root);
        checkDefinedOnce(file, "product");
        const std::optional<Layer> layer = layerOfFile(relative);
        if (layer) checkIncludes(file, root, qtHeaders, *layer, out);
        if (relative.starts_with("backend/") && file.extension() == ".h") {
            const std::size_t lines = readLines(file).size();
            if (lines > limits.maxBackendHeaderLines)
                out.push_back({relative, 0, std::to_string(lines) + " lines",
                               "a header in backend/ stays within " + std::to_string(limits.maxBackendHeaderLines) +
                                   " lines: split it by concern, move what need not be inline to a .cpp"});
        }
        checkListed(file, root, out);
    }
    out.insert(out.end(), twice.begin(), twice.end());
    static const std::regex glob(R"(file\s*\(\s*GLOB)", std::regex::icase);
    for (const fs::path& cmake : cmakeFiles) {
        const std::vector<std::string> lines = readLines(cmake);
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (std::regex_search(lines[i], glob))
                out.push_back({relativeTo(cmake, root), static_cast<int>(i + 1), "file(GLOB ...)",
                               "source lists are written out, not globbed"});
    }
    return out;
}

} // namespace topodeck::structure
