#include "views/dialogs/export_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace topodeck {

namespace {

QWidget* withBrowse(QLineEdit* field, QPushButton* browse) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field, 1);
    layout->addWidget(browse);
    return row;
}

} // namespace

ExportDialog::ExportDialog(ClusterSession* session, QWidget* parent) : QDialog(parent), m_session(session) {
    setWindowTitle(tr("Export for Review"));
    auto* layout = new QVBoxLayout(this);

    m_bundle = new QRadioButton(tr("A review &bundle: the plan, its impact, the gang before and after, maps and a README"));
    m_files = new QRadioButton(tr("The hierarchy as &files for the schedulers"));
    m_bundle->setChecked(true);
    layout->addWidget(m_bundle);

    auto* bundleBox = new QGroupBox;
    auto* bundleForm = new QFormLayout(bundleBox);
    m_plan = new QLineEdit;
    m_plan->setPlaceholderText(tr("none: the hierarchy as it is now"));
    m_plan->setToolTip(tr("A change plan written by topodeckctl label -o PLAN"));
    auto* browsePlan = new QPushButton(tr("Browse…"));
    connect(browsePlan, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Change Plan"), m_plan->text(),
                                                          tr("Change plans (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty()) m_plan->setText(path);
    });
    bundleForm->addRow(tr("Change &plan:"), withBrowse(m_plan, browsePlan));
    m_withGang = new QCheckBox(tr("Dry-run the &planner's gang before and after, and write it as manifests"));
    bundleForm->addRow(m_withGang);
    layout->addWidget(bundleBox);

    layout->addWidget(m_files);
    auto* filesBox = new QGroupBox;
    auto* filesLayout = new QVBoxLayout(filesBox);
    const std::pair<QString, std::string> formats[] = {
        {tr("Kueue Topology and ResourceFlavor"), "kueue"},
        {tr("KAI Topology"), "kai"},
        {tr("Volcano HyperNodes"), "hypernodes"},
        {tr("Slurm topology.conf"), "topology.conf"},
        {tr("Slurm topology.yaml"), "topology.yaml"},
        {tr("Node labels (partial Nodes and kubectl label lines)"), "labels"},
        {tr("Occupancy map (SVG)"), "map"},
    };
    for (const auto& [text, format] : formats) {
        auto* box = new QCheckBox(text);
        box->setChecked(true);
        filesLayout->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &ExportDialog::updateEnabled);
        m_formats.emplace_back(box, format);
    }
    layout->addWidget(filesBox);

    auto* common = new QFormLayout;
    m_blocks = new QCheckBox(tr("Slurm files as a &block topology (one block per NVLink domain)"));
    common->addRow(m_blocks);
    m_folder = new QLineEdit;
    m_folder->setPlaceholderText(tr("a new or empty folder for a bundle"));
    auto* browseFolder = new QPushButton(tr("Browse…"));
    connect(browseFolder, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Export Into"), m_folder->text());
        if (!path.isEmpty()) m_folder->setText(path);
    });
    common->addRow(tr("&Folder:"), withBrowse(m_folder, browseFolder));
    layout->addLayout(common);

    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    m_result = new QPlainTextEdit;
    m_result->setReadOnly(true);
    m_result->setPlaceholderText(tr("What is written is listed here."));
    m_result->setMinimumHeight(120);
    layout->addWidget(m_result, 1);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* exportButton = m_buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    exportButton->setDefault(true);
    // Export writes and stays open; only Close closes.
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ExportDialog::exportNow);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    for (QRadioButton* choice : {m_bundle, m_files}) connect(choice, &QRadioButton::toggled, this, &ExportDialog::updateEnabled);
    connect(m_folder, &QLineEdit::textChanged, this, &ExportDialog::updateEnabled);
    connect(m_plan, &QLineEdit::textChanged, this, &ExportDialog::updateEnabled);
    connect(m_session, &ClusterSession::exportFinished, this, &ExportDialog::showAnswer);
    bundleBox->setEnabled(true);
    connect(m_bundle, &QRadioButton::toggled, bundleBox, &QWidget::setEnabled);
    connect(m_files, &QRadioButton::toggled, filesBox, &QWidget::setEnabled);
    filesBox->setEnabled(false);
    resize(640, 620);
    updateEnabled();
}

void ExportDialog::start(const QString& plannerFlags, const QString& sourceName) {
    m_plannerFlags = plannerFlags;
    m_sourceName = sourceName;
    const bool gang = !plannerFlags.trimmed().isEmpty() && parsePlanQuery(plannerFlags.toStdString()).ok();
    m_withGang->setEnabled(gang);
    m_withGang->setChecked(gang);
    m_withGang->setToolTip(gang ? tr("The planner's request: %1").arg(plannerFlags)
                                : tr("The planner holds no gang that runs: plan one first"));
    m_result->clear();
    updateEnabled();
}

Result<ExportRequest> ExportDialog::request() const {
    ExportRequest request;
    request.folder = m_folder->text().trimmed().toStdString();
    if (request.folder.empty()) return Error{tr("Choose the folder to write into.").toStdString()};
    request.bundle = m_bundle->isChecked();
    request.source = m_sourceName.toStdString();
    request.options.blocks = m_blocks->isChecked();
    if (request.bundle) {
        request.planFile = m_plan->text().trimmed().toStdString();
        if (m_withGang->isEnabled() && m_withGang->isChecked()) {
            auto query = parsePlanQuery(m_plannerFlags.toStdString());
            if (!query) return Error{tr("The planner's gang: %1").arg(QString::fromStdString(query.error().message)).toStdString()};
            request.gang = std::move(*query);
        }
        return request;
    }
    for (const auto& [box, format] : m_formats)
        if (box->isChecked()) request.formats.push_back(format);
    if (request.formats.empty()) return Error{tr("Tick at least one form to write.").toStdString()};
    return request;
}

void ExportDialog::updateEnabled() {
    const Result<ExportRequest> asked = request();
    m_problem->setText(asked || m_folder->text().isEmpty() ? QString() : QString::fromStdString(asked.error().message));
    for (QAbstractButton* button : m_buttons->buttons())
        if (m_buttons->buttonRole(button) == QDialogButtonBox::AcceptRole) button->setEnabled(asked.ok() && !m_waiting);
}

void ExportDialog::exportNow() {
    const Result<ExportRequest> asked = request();
    if (!asked || m_waiting) return;
    m_waiting = true;
    m_result->setPlainText(tr("Exporting…"));
    updateEnabled();
    m_session->requestExport(*asked);
}

void ExportDialog::showAnswer(const ExportAnswerPtr& answer) {
    if (!m_waiting) return; // another window's export
    m_waiting = false;
    QStringList lines;
    if (!answer->error.empty()) lines << tr("Nothing written: %1").arg(QString::fromStdString(answer->error));
    else lines << tr("Wrote %n file(s):", nullptr, int(answer->written.size()));
    for (const std::string& path : answer->written) lines << QStringLiteral("  ") + QString::fromStdString(path);
    for (const std::string& warning : answer->warnings) lines << tr("Left out: %1").arg(QString::fromStdString(warning));
    m_result->setPlainText(lines.join(QLatin1Char('\n')));
    updateEnabled();
    Q_EMIT finished(answer->error.empty());
}

} // namespace topodeck
