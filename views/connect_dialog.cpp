#include "views/connect_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace topodeck {

namespace {

enum Column { NameColumn, ClusterColumn, ServerColumn, UserColumn, LoginColumn, ColumnCount };
constexpr int kInClusterRole = Qt::UserRole + 1;

} // namespace

ConnectDialog::ConnectDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Connect to Kubernetes"));
    auto* layout = new QVBoxLayout(this);

    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setPlaceholderText(tr("KUBECONFIG or ~/.kube/config"));
    m_path->setAccessibleName(tr("Kubeconfig file"));
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);
    auto* form = new QFormLayout;
    form->addRow(tr("Kubeconfig:"), pathRow);
    layout->addLayout(form);

    m_contexts = new QTreeWidget(this);
    m_contexts->setColumnCount(ColumnCount);
    m_contexts->setHeaderLabels({tr("Context"), tr("Cluster"), tr("Server"), tr("User"), tr("Login")});
    m_contexts->setRootIsDecorated(false);
    m_contexts->setAlternatingRowColors(true);
    m_contexts->setUniformRowHeights(true);
    m_contexts->setAccessibleName(tr("Contexts"));
    m_contexts->header()->setStretchLastSection(true);
    layout->addWidget(m_contexts, 1);

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    m_newWindow = new QCheckBox(tr("Open in a new window"), this);
    layout->addWidget(m_newWindow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    layout->addWidget(buttons);
    resize(820, 420);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browseButton, &QPushButton::clicked, this, &ConnectDialog::browse);
    connect(m_path, &QLineEdit::editingFinished, this, [this] { m_catalog.load(m_path->text().trimmed()); });
    connect(&m_catalog, &KubeconfigCatalog::loaded, this, &ConnectDialog::showListing);
    connect(m_contexts, &QTreeWidget::itemSelectionChanged, this, &ConnectDialog::updateButtons);
    connect(m_contexts, &QTreeWidget::itemDoubleClicked, this, [this] {
        if (m_connect->isEnabled()) accept();
    });
    updateButtons();
}

void ConnectDialog::start(const QString& kubeconfig, bool preferNewWindow) {
    m_path->setText(kubeconfig);
    m_newWindow->setChecked(preferNewWindow);
    m_message->setText(tr("Reading the kubeconfig…"));
    m_catalog.load(kubeconfig);
}

void ConnectDialog::browse() {
    const QString start = m_path->text().isEmpty() ? QDir::homePath() + QStringLiteral("/.kube") : m_path->text();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a kubeconfig"), start);
    if (path.isEmpty()) return;
    m_path->setText(path);
    m_catalog.load(path);
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
    if (current) m_contexts->setCurrentItem(current);
    else if (m_contexts->topLevelItemCount() > 0) m_contexts->setCurrentItem(m_contexts->topLevelItem(0));

    QStringList lines;
    if (!listing.error.isEmpty()) lines << listing.error;
    else if (listing.contexts.isEmpty()) lines << tr("No contexts: no kubeconfig was found, or it defines none.");
    else lines << tr("From %1").arg(listing.files.join(QStringLiteral(", ")));
    lines << listing.warnings;
    m_message->setText(lines.join(QLatin1Char('\n')));
    updateButtons();
    Q_EMIT listed();
}

void ConnectDialog::updateButtons() {
    m_connect->setEnabled(m_contexts->currentItem() != nullptr);
}

KubeChoice ConnectDialog::choice() const {
    KubeChoice choice;
    choice.kubeconfig = m_path->text().trimmed();
    choice.newWindow = m_newWindow->isChecked();
    if (const QTreeWidgetItem* item = m_contexts->currentItem()) {
        choice.inCluster = item->data(NameColumn, kInClusterRole).toBool();
        if (!choice.inCluster) choice.context = item->text(NameColumn);
    }
    return choice;
}

} // namespace topodeck
