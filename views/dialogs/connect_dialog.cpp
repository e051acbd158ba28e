#include "views/dialogs/connect_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace topodeck {

namespace {

enum Column { NameColumn, ClusterColumn, ServerColumn, UserColumn, LoginColumn, ColumnCount };
constexpr int kInClusterRole = Qt::UserRole + 1;
// The sub-fields of a choice sit under its radio button, indented as far as the button's text.
constexpr int kIndent = 24;

// A line edit with a Browse… button beside it, as one form row.
QHBoxLayout* withBrowseButton(QLineEdit* field, QPushButton* button) {
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(button);
    return row;
}

QString fieldText(const QLineEdit* field) {
    return field->text().trimmed();
}

} // namespace

ConnectDialog::ConnectDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Connect to a Cluster"));
    auto* layout = new QVBoxLayout(this);

    m_tabs = new QTabWidget(this);
    m_kubernetesTab = buildKubernetesTab();
    m_slurmTab = buildSlurmTab();
    m_tabs->addTab(m_kubernetesTab, tr("Kubernetes"));
    m_tabs->addTab(m_slurmTab, tr("Slurm"));
    layout->addWidget(m_tabs, 1);

    m_newWindow = new QCheckBox(tr("Open in a new window"), this);
    layout->addWidget(m_newWindow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    layout->addWidget(buttons);
    resize(820, 500);

    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ConnectDialog::updateButtons);
    connect(&m_catalog, &KubeconfigCatalog::loaded, this, &ConnectDialog::showListing);
    updateButtons();
}

QWidget* ConnectDialog::buildKubernetesTab() {
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);

    m_path = new QLineEdit(tab);
    m_path->setPlaceholderText(tr("KUBECONFIG or ~/.kube/config"));
    m_path->setAccessibleName(tr("Kubeconfig file"));
    auto* browseButton = new QPushButton(tr("Browse…"), tab);
    auto* form = new QFormLayout;
    form->addRow(tr("Kubeconfig:"), withBrowseButton(m_path, browseButton));
    layout->addLayout(form);

    m_contexts = new QTreeWidget(tab);
    m_contexts->setColumnCount(ColumnCount);
    m_contexts->setHeaderLabels({tr("Context"), tr("Cluster"), tr("Server"), tr("User"), tr("Login")});
    m_contexts->setRootIsDecorated(false);
    m_contexts->setAlternatingRowColors(true);
    m_contexts->setUniformRowHeights(true);
    m_contexts->setAccessibleName(tr("Contexts"));
    m_contexts->header()->setStretchLastSection(true);
    layout->addWidget(m_contexts, 1);

    m_message = new QLabel(tab);
    m_message->setObjectName(QStringLiteral("kubeconfigMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    connect(browseButton, &QPushButton::clicked, this, &ConnectDialog::browse);
    connect(m_path, &QLineEdit::editingFinished, this, [this] { m_catalog.load(m_path->text().trimmed()); });
    connect(m_contexts, &QTreeWidget::itemSelectionChanged, this, &ConnectDialog::updateButtons);
    connect(m_contexts, &QTreeWidget::itemDoubleClicked, this, &ConnectDialog::accept);
    return tab;
}

QWidget* ConnectDialog::buildSlurmTab() {
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);

    m_useRest = new QRadioButton(tr("slurmrestd (Slurm's REST API)"), tab);
    m_useRest->setChecked(true);
    layout->addWidget(m_useRest);
    m_restFields = new QWidget(tab);
    auto* restForm = new QFormLayout(m_restFields);
    restForm->setContentsMargins(kIndent, 0, 0, 0);
    m_restUrl = new QLineEdit(m_restFields);
    m_restUrl->setObjectName(QStringLiteral("slurmUrl"));
    m_restUrl->setPlaceholderText(tr("http://slurm-ctl:6820 or unix:/run/slurmrestd/slurmrestd.sock"));
    m_restUrl->setAccessibleName(tr("slurmrestd URL"));
    restForm->addRow(tr("URL:"), m_restUrl);
    // Right under the URL, the only field that can be wrong.
    m_slurmProblem = new QLabel(m_restFields);
    m_slurmProblem->setObjectName(QStringLiteral("slurmProblem"));
    m_slurmProblem->setWordWrap(true);
    m_slurmProblem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    restForm->addRow(QString(), m_slurmProblem);
    m_restForm = restForm;
    m_tokenFile = new QLineEdit(m_restFields);
    m_tokenFile->setObjectName(QStringLiteral("slurmTokenFile"));
    m_tokenFile->setPlaceholderText(tr("a file holding the JWT (scontrol token); empty: $SLURM_JWT"));
    m_tokenFile->setAccessibleName(tr("Token file"));
    auto* browseToken = new QPushButton(tr("Browse…"), m_restFields);
    restForm->addRow(tr("Token file:"), withBrowseButton(m_tokenFile, browseToken));
    m_userName = new QLineEdit(m_restFields);
    m_userName->setObjectName(QStringLiteral("slurmUser"));
    m_userName->setPlaceholderText(tr("optional; empty: the token's user"));
    m_userName->setAccessibleName(tr("Slurm user"));
    restForm->addRow(tr("User:"), m_userName);
    layout->addWidget(m_restFields);

    m_useCommands = new QRadioButton(tr("Slurm commands on this machine (sinfo, squeue, scontrol)"), tab);
    m_useCommands->setObjectName(QStringLiteral("slurmUseCommands"));
    layout->addWidget(m_useCommands);
    m_commandFields = new QWidget(tab);
    auto* commandForm = new QFormLayout(m_commandFields);
    commandForm->setContentsMargins(kIndent, 0, 0, 0);
    m_slurmConf = new QLineEdit(m_commandFields);
    m_slurmConf->setObjectName(QStringLiteral("slurmConf"));
    m_slurmConf->setPlaceholderText(tr("optional; empty: the commands' own"));
    m_slurmConf->setAccessibleName(tr("SLURM_CONF file"));
    auto* browseConf = new QPushButton(tr("Browse…"), m_commandFields);
    commandForm->addRow(tr("SLURM_CONF:"), withBrowseButton(m_slurmConf, browseConf));
    layout->addWidget(m_commandFields);

    auto* common = new QFormLayout;
    m_topologyFile = new QLineEdit(tab);
    m_topologyFile->setObjectName(QStringLiteral("slurmTopologyFile"));
    m_topologyFile->setPlaceholderText(tr("topology.conf or topology.yaml (optional)"));
    m_topologyFile->setAccessibleName(tr("Topology file"));
    auto* browseTopology = new QPushButton(tr("Browse…"), tab);
    common->addRow(tr("Topology file:"), withBrowseButton(m_topologyFile, browseTopology));
    auto* topologyHint = new QLabel(tr("slurmrestd does not serve the topology: without this file the map groups "
                                       "nodes by partition. The Slurm commands ask scontrol show topology."),
                                    tab);
    topologyHint->setWordWrap(true);
    topologyHint->setForegroundRole(QPalette::PlaceholderText);
    common->addRow(QString(), topologyHint);
    m_poll = new QDoubleSpinBox(tab);
    m_poll->setObjectName(QStringLiteral("slurmPoll"));
    // The CLI's --poll bounds.
    m_poll->setRange(0.1, 86400);
    m_poll->setDecimals(1);
    m_poll->setValue(5);
    m_poll->setSuffix(tr(" s"));
    m_poll->setAccessibleName(tr("Poll interval in seconds"));
    auto* pollRow = new QHBoxLayout;
    pollRow->addWidget(m_poll);
    pollRow->addStretch(1);
    common->addRow(tr("Poll every:"), pollRow);
    layout->addSpacing(8);
    layout->addLayout(common);
    layout->addStretch(1);

    connect(m_useRest, &QRadioButton::toggled, this, &ConnectDialog::updateButtons);
    for (QLineEdit* field : {m_restUrl, m_tokenFile, m_userName, m_slurmConf, m_topologyFile})
        connect(field, &QLineEdit::textChanged, this, &ConnectDialog::updateButtons);
    connect(browseToken, &QPushButton::clicked, this,
            [this] { browseInto(m_tokenFile, tr("Choose the file holding the JWT")); });
    connect(browseConf, &QPushButton::clicked, this, [this] { browseInto(m_slurmConf, tr("Choose a slurm.conf")); });
    connect(browseTopology, &QPushButton::clicked, this,
            [this] { browseInto(m_topologyFile, tr("Choose a topology.conf or topology.yaml")); });
    return tab;
}

void ConnectDialog::start(const QString& kubeconfig, bool preferNewWindow) {
    m_path->setText(kubeconfig);
    m_newWindow->setChecked(preferNewWindow);
    m_message->setText(tr("Reading the kubeconfig…"));
    m_catalog.load(kubeconfig);
}

void ConnectDialog::showSlurm(const SlurmTarget& target, std::chrono::milliseconds poll) {
    const bool rest = target.kind == SlurmTarget::Kind::Rest;
    (rest ? m_useRest : m_useCommands)->setChecked(true);
    m_restUrl->setText(QString::fromStdString(target.url));
    m_tokenFile->setText(QString::fromStdString(target.tokenFile));
    m_userName->setText(QString::fromStdString(target.userName));
    m_slurmConf->setText(QString::fromStdString(target.slurmConf));
    m_topologyFile->setText(QString::fromStdString(target.topologyFile));
    m_poll->setValue(double(poll.count()) / 1000.0);
    m_tabs->setCurrentWidget(m_slurmTab);
    updateButtons();
}

void ConnectDialog::browse() {
    const QString start = m_path->text().isEmpty() ? QDir::homePath() + QStringLiteral("/.kube") : m_path->text();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a kubeconfig"), start);
    if (path.isEmpty()) return;
    m_path->setText(path);
    m_catalog.load(path);
}

void ConnectDialog::browseInto(QLineEdit* field, const QString& caption) {
    const QString current = fieldText(field);
    const QString start = current.isEmpty() ? QDir::homePath() : QFileInfo(current).path();
    const QString path = QFileDialog::getOpenFileName(this, caption, start);
    if (!path.isEmpty()) field->setText(path);
}

void ConnectDialog::showListing(const KubeconfigListing& listing) {
    m_contexts->clear();
    QTreeWidgetItem* current = nullptr;
    for (const KubeContextInfo& info : listing.contexts) {
        auto* item = new QTreeWidgetItem(m_contexts, {info.name, info.cluster, info.server, info.user, info.login});
        item->setData(NameColumn, kInClusterRole, info.inCluster);
        if (info.name == listing.currentContext && !info.inCluster) {
            QFont bold = item->font(NameColumn);
            bold.setBold(true);
            item->setFont(NameColumn, bold);
            item->setToolTip(NameColumn, tr("the kubeconfig's current-context"));
            current = item;
        }
    }
    for (int column = 0; column < ColumnCount; ++column) m_contexts->resizeColumnToContents(column);
    if (current)
        m_contexts->setCurrentItem(current);
    else if (m_contexts->topLevelItemCount() > 0)
        m_contexts->setCurrentItem(m_contexts->topLevelItem(0));

    QStringList lines;
    if (!listing.error.isEmpty())
        lines << listing.error;
    else if (listing.contexts.isEmpty())
        lines << tr("No contexts: no kubeconfig was found, or it defines none.");
    else
        lines << tr("From %1").arg(listing.files.join(QStringLiteral(", ")));
    lines << listing.warnings;
    m_message->setText(lines.join(QLatin1Char('\n')));
    updateButtons();
    Q_EMIT listed();
}

std::optional<SlurmTarget> ConnectDialog::slurmTarget(QString* problem, QString* detail) const {
    const auto none = [problem, detail](const QString& said, const QString& backendSaid = QString()) {
        if (problem) *problem = said;
        if (detail) *detail = backendSaid;
        return std::optional<SlurmTarget>();
    };
    SlurmTarget target;
    if (m_useRest->isChecked()) {
        const QString url = fieldText(m_restUrl);
        if (url.isEmpty()) return none(QString());
        Result<SlurmTarget> parsed = SlurmTarget::fromArgument(url.toStdString());
        // fromArgument decides; its words are the command line's (--slurm), so say it for this field.
        if (!parsed)
            return none(tr("Not a slurmrestd URL: give http://host:port, https://… or unix:/path/to/slurmrestd.sock, "
                           "e.g. http://slurm-ctl:6820 (not “%1”).")
                            .arg(url),
                        QString::fromStdString(parsed.error().message));
        // fromArgument takes "cli" too, which is the other choice, not a URL.
        if (parsed->kind != SlurmTarget::Kind::Rest)
            return none(
                tr("“%1” is not a URL: for the Slurm commands, choose “Slurm commands on this machine”.").arg(url));
        target = std::move(*parsed);
        target.tokenFile = fieldText(m_tokenFile).toStdString();
        target.userName = fieldText(m_userName).toStdString();
    } else {
        target.kind = SlurmTarget::Kind::Cli;
        target.slurmConf = fieldText(m_slurmConf).toStdString();
    }
    target.topologyFile = fieldText(m_topologyFile).toStdString();
    if (problem) problem->clear();
    if (detail) detail->clear();
    return target;
}

void ConnectDialog::updateButtons() {
    const bool rest = m_useRest->isChecked();
    m_restFields->setEnabled(rest);
    m_commandFields->setEnabled(!rest);
    QString problem, detail;
    const bool slurmReady = slurmTarget(&problem, &detail).has_value();
    m_slurmProblem->setText(problem.isEmpty() ? QString() : tr("⚠ %1").arg(problem));
    m_slurmProblem->setToolTip(detail);
    m_restForm->setRowVisible(m_slurmProblem, !problem.isEmpty());
    const bool slurmShown = m_tabs->currentWidget() == m_slurmTab;
    m_connect->setEnabled(slurmShown ? slurmReady : m_contexts->currentItem() != nullptr);
}

void ConnectDialog::accept() {
    if (m_connect->isEnabled()) QDialog::accept();
}

ConnectChoice ConnectDialog::choice() const {
    ConnectChoice choice;
    choice.newWindow = m_newWindow->isChecked();
    choice.kubeconfig = m_path->text().trimmed();
    if (m_tabs->currentWidget() == m_slurmTab) {
        choice.kind = ConnectChoice::Kind::Slurm;
        if (std::optional<SlurmTarget> target = slurmTarget()) choice.slurm = std::move(*target);
        choice.slurmPoll = std::chrono::milliseconds(std::llround(m_poll->value() * 1000));
        return choice;
    }
    if (const QTreeWidgetItem* item = m_contexts->currentItem()) {
        choice.inCluster = item->data(NameColumn, kInClusterRole).toBool();
        if (!choice.inCluster) choice.context = item->text(NameColumn);
    }
    return choice;
}

} // namespace topodeck
