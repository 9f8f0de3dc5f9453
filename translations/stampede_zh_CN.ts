<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="43" />
        <source>Filter requests, scenarios, data sets…</source>
        <translation>筛选请求、场景、数据集…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="62" />
        <source>&lt;h2&gt;Stampede&lt;/h2&gt;&lt;p&gt;Open a request from the project tree, or create one with &lt;b&gt;Ctrl+N&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Everything you edit is saved in the project at once.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Stampede&lt;/h2&gt;&lt;p&gt;从左侧项目树中打开一个请求，或按 &lt;b&gt;Ctrl+N&lt;/b&gt; 新建请求。&lt;/p&gt;&lt;p&gt;所有编辑都会立即保存到项目中。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="65" />
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="75" />
        <source>The environment whose values fill ${variables} when you send</source>
        <translation>发送时用于填充 ${变量} 的环境</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="94" />
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="106" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="107" />
        <source>&amp;New Project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="108" />
        <source>New Project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="109" />
        <location filename="../widgets/mainwindow.cpp" line="116" />
        <source>Stampede projects (*.stampede)</source>
        <translation>Stampede 项目 (*.stampede)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="114" />
        <source>&amp;Open Project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="115" />
        <source>Open Project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="120" />
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="127" />
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="129" />
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="130" />
        <source>Everything is saved as you edit it.</source>
        <translation>所有内容在编辑时已自动保存。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="132" />
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="134" />
        <source>&amp;Request</source>
        <translation>请求(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="135" />
        <source>&amp;New Request</source>
        <translation>新建请求(&amp;N)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="137" />
        <source>&amp;Send</source>
        <translation>发送(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="142" />
        <source>Copy as &amp;curl</source>
        <translation>复制为 &amp;curl 命令</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="145" />
        <source>The request is on the clipboard as a curl command.</source>
        <translation>请求已作为 curl 命令复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="148" />
        <source>&amp;Close Tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="155" />
        <source>&amp;Project</source>
        <translation>项目(&amp;P)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="160" />
        <source>New &amp;Collection</source>
        <translation>新建集合(&amp;C)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="161" />
        <source>New &amp;Folder</source>
        <translation>新建文件夹(&amp;F)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="162" />
        <source>New &amp;Environment</source>
        <translation>新建环境(&amp;E)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="163" />
        <source>New &amp;Data Set</source>
        <translation>新建数据集(&amp;D)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="164" />
        <source>New &amp;Scenario</source>
        <translation>新建场景(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="170" />
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="175" />
        <source>D&amp;uplicate</source>
        <translation>复制副本(&amp;U)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="179" />
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="183" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="183" />
        <source>Delete "%1" and everything in it?</source>
        <translation>删除“%1”及其包含的全部内容？</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="193" />
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="194" />
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="201" />
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="211" />
        <source>The language changes when Stampede starts again.</source>
        <translation>语言将在 Stampede 重新启动后生效。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="215" />
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="220" />
        <source>Environment: </source>
        <translation>环境：</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="239" />
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="251" />
        <location filename="../widgets/mainwindow.cpp" line="298" />
        <source>My requests</source>
        <translation>我的请求</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="252" />
        <source>local</source>
        <translation>本地</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="272" />
        <source>%1 — Stampede</source>
        <translation>%1 — Stampede</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="273" />
        <location filename="../widgets/mainwindow.cpp" line="280" />
        <source>Stampede</source>
        <translation>Stampede</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="302" />
        <source>New request</source>
        <translation>新请求</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="303" />
        <source>New folder</source>
        <translation>新文件夹</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="304" />
        <source>New collection</source>
        <translation>新集合</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="305" />
        <source>New environment</source>
        <translation>新环境</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="306" />
        <source>New data set</source>
        <translation>新数据集</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="307" />
        <source>New scenario</source>
        <translation>新场景</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="355" />
        <source>(no environment)</source>
        <translation>（无环境）</translation>
    </message>
</context>
<context>
    <name>ProjectTreeModel</name>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="179" />
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="265" />
        <source>No project is open.</source>
        <translation>尚未打开任何项目。</translation>
    </message>
</context>
<context>
    <name>RequestEditor</name>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="42" />
        <source>HTTP method</source>
        <translation>HTTP 方法</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="44" />
        <source>https://host/path?query — ${variables} allowed; paste a curl command to import it</source>
        <translation>https://主机/路径?查询 — 可使用 ${变量}；粘贴 curl 命令即可导入</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="45" />
        <source>The request URL. ${name} takes its value from the current environment when sent.
Pasting a curl command here imports its method, URL, headers and body.</source>
        <translation>请求 URL。发送时 ${名称} 取自当前环境。
在此粘贴 curl 命令可导入其方法、URL、请求头和请求体。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="47" />
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="48" />
        <source>Send the request once (Ctrl+Enter)</source>
        <translation>发送一次该请求 (Ctrl+Enter)</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="59" />
        <location filename="../widgets/requesteditor.cpp" line="71" />
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="59" />
        <location filename="../widgets/requesteditor.cpp" line="71" />
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="62" />
        <source>Request body (raw text or JSON; ${variables} allowed)</source>
        <translation>请求体（原始文本或 JSON；可使用 ${变量}）</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="64" />
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="65" />
        <source>Body</source>
        <translation>请求体</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="67" />
        <source>No response yet. Press Send (Ctrl+Enter).</source>
        <translation>尚无响应。请点击“发送” (Ctrl+Enter)。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="74" />
        <source>Response body</source>
        <translation>响应体</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="75" />
        <source>Response headers</source>
        <translation>响应头</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="98" />
        <source>Not imported: %1</source>
        <translation>未能导入：%1</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="164" />
        <source>The request URL. ${name} takes its value from the current environment when sent.</source>
        <translation>请求 URL。发送时 ${名称} 取自当前环境。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="170" />
        <source>Unknown variables: %1 (define them in the current environment)</source>
        <translation>未知变量：%1（请在当前环境中定义）</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="227" />
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="255" />
        <source>%1 · %2 ms · %3 bytes</source>
        <translation>%1 · %2 毫秒 · %3 字节</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="270" />
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
</TS>