/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import io.stampede.names.PluginNames;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.NullProperty;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.ListenerNotifier;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.ListedHashTree;
import org.apache.jorphan.util.JMeterStopTestException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * A thread group whose users are ordinary {@link JMeterThread}s (each with its own cloned plan, variables, cookies
 * and extractors), run on virtual threads instead of OS threads, so a user costs a heap object graph rather than a
 * thread stack and a kernel task. Users are created when they are due, not all at the start, so memory grows with
 * the ramp-up. A JVM without virtual threads is refused at test start; there is no fallback to OS threads.
 */
public class VirtualUserThreadGroup extends AbstractThreadGroup implements ThreadListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(VirtualUserThreadGroup.class);

    /** What users of this group are called in messages and in the GUI. */
    public static final String DISPLAY_NAME = "Stampede Virtual User Thread Group";

    private static final long STOP_WAIT_MILLIS = DEFAULT_THREAD_STOP_TIMEOUT.toMillis();
    private static final List<String> USER_ROOT_PROPERTIES = List.of(TestElement.NAME, TestElement.ENABLED,
            TestElement.TEST_CLASS, TestElement.GUI_CLASS, MAIN_CONTROLLER);

    private transient volatile boolean running;
    private transient Map<JMeterThread, Thread> users;
    private transient Thread starter;
    private transient ThreadFactory factory;
    private transient int groupNumber;
    private transient ListenerNotifier notifier;
    private transient ListedHashTree tree;
    private transient JMeterVariables initialVariables;
    private transient long startMillis;
    private transient UserSchedule schedule;
    private transient UserTreeCopier copier;
    /** Set on a user's root (its copy of this group), the first element JMeter tells that the user started. */
    private transient boolean userRoot;

    @Override
    public void start(int groupNum, ListenerNotifier notifier, ListedHashTree threadGroupTree,
                      StandardJMeterEngine engine) {
        ThreadFactory virtualThreads;
        try {
            virtualThreads = VirtualThreads.factory(DISPLAY_NAME + " '" + getName() + "'");
            schedule = readSchedule();
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            log.error(e.getMessage());
            if (engine != null) {
                engine.stopTest(true);
            }
            throw new JMeterStopTestException(e.getMessage());
        }
        if (Runtime.version().feature() < VirtualThreads.UNPINNED_SYNCHRONIZED_JAVA) {
            log.warn("{}: on Java {} a virtual thread pins its carrier inside synchronized blocks (JMeter's result "
                    + "writer holds one around every JTL line); Java {}+ does not", DISPLAY_NAME,
                    Runtime.version().feature(), VirtualThreads.UNPINNED_SYNCHRONIZED_JAVA);
        }
        launch(virtualThreads, groupNum, notifier, threadGroupTree, engine);
    }

    /** Starts the starter thread, which makes each user with {@code threads} when it is due. */
    void launch(ThreadFactory threads, int groupNum, ListenerNotifier notifier, ListedHashTree threadGroupTree,
                StandardJMeterEngine engine) {
        if (schedule == null) {
            schedule = readSchedule();
        }
        this.factory = threads;
        this.copier = new UserTreeCopier();
        this.groupNumber = groupNum;
        this.notifier = notifier;
        this.tree = threadGroupTree;
        this.users = new ConcurrentHashMap<>();
        this.initialVariables = JMeterContextService.getContext().getVariables();
        this.startMillis = System.currentTimeMillis();
        this.running = true;
        log.info("{} {}: {} users, delay {} ms, ramp-up {} ms, hold {} ms, on virtual threads (Java {})",
                DISPLAY_NAME, groupNum, schedule.users(), schedule.delayMillis(), schedule.rampUpMillis(),
                schedule.holdMillis(), Runtime.version().feature());
        // One OS thread paces the arrivals, so no user's plan is cloned before it is due.
        UserArrivals arrivals = new UserArrivals(DISPLAY_NAME + " '" + getName() + "'", schedule, startMillis,
                () -> running, index -> startUser(engine, index), () -> {
                    running = false;
                    if (engine != null) {
                        engine.stopTest(true);
                    }
                });
        starter = new Thread(arrivals, getName() + "-starter");
        starter.setDaemon(true);
        starter.start();
    }

    /** The group's settings as numbers; a bad one is refused naming its property. */
    UserSchedule readSchedule() {
        return UserSchedule.read(this::getPropertyAsString, DISPLAY_NAME + " '" + getName() + "'");
    }

    private JMeterThread startUser(StandardJMeterEngine engine, int index) {
        JMeterThread user = newUser(engine, index);
        if (schedule.timed()) {
            user.setScheduled(true);
            user.setStartTime(System.currentTimeMillis());
            user.setEndTime(startMillis + schedule.endOffset());
        }
        Thread t = factory.newThread(user);
        t.setName(user.getThreadName());
        users.put(user, t);
        try {
            t.start();
        } catch (RuntimeException | Error e) {
            users.remove(user);
            throw e;
        }
        return user;
    }

    /**
     * This group as one user's root controller, with only what the user's thread reads of it: the name and its own
     * copy of the loop controller. The group's settings (users, ramp-up, on-error action, ...) are read from the
     * group itself, by {@link #newUser} and JMeter's context, so a user's root need not carry them.
     */
    VirtualUserThreadGroup userRoot() {
        VirtualUserThreadGroup root = new VirtualUserThreadGroup();
        for (String kept : USER_ROOT_PROPERTIES) {
            JMeterProperty p = getProperty(kept);
            if (!(p instanceof NullProperty)) {
                root.setProperty(p.clone());
            }
        }
        root.setRunningVersion(isRunningVersion());
        root.userRoot = true;
        return root;
    }

    /**
     * On a user's root: JMeter has compiled the user's plan (it calls thread listeners right after), so trim what
     * it built for growth that never comes ({@link ThreadBookkeeping}).
     */
    @Override
    public void threadStarted() {
        if (userRoot) {
            JMeterThread thread = JMeterContextService.getContext().getThread();
            if (thread != null) {
                ThreadBookkeeping.trim(thread);
            }
        }
    }

    @Override
    public void threadFinished() {
        // nothing to release: the user's copy goes with its thread
    }

    /**
     * On a user's root, JMeter asks for the user's next sampler: the user drops JMeter's regular-expression matcher
     * of its thread first ({@link RegexMatcherOfThread}), so a user that thinks in that sampler does not hold the
     * text its extractors last matched.
     */
    @Override
    public Sampler next() {
        Sampler next = super.next();
        if (userRoot) {
            RegexMatcherOfThread.forget();
        }
        return next;
    }

    /**
     * A user as {@code AbstractThreadGroup.makeThread} makes one (same name, number, variables and on-error
     * settings), on the user's own compact copy of the plan: {@code makeThread} takes a {@code ListedHashTree}, whose
     * nodes all cost a 64-slot table, and a {@code ListedHashTree} casts every subtree it returns to its own class.
     */
    private JMeterThread newUser(StandardJMeterEngine engine, int index) {
        JMeterThread user = new JMeterThread(copier.copy(tree), this, notifier, isSameUserOnNextIteration());
        user.setThreadNum(index);
        user.setThreadGroup(this);
        user.putVariables(initialVariables);
        String prefix = JMeterUtils.getPropDefault(JMeterUtils.THREAD_GROUP_DISTRIBUTED_PREFIX_PROPERTY_NAME, "");
        user.setThreadName(prefix + (prefix.isEmpty() ? "" : "-") + getName() + " " + groupNumber + "-" + (index + 1));
        user.setEngine(engine);
        user.setOnErrorStopTest(getOnErrorStopTest());
        user.setOnErrorStopTestNow(getOnErrorStopTestNow());
        user.setOnErrorStopThread(getOnErrorStopThread());
        user.setOnErrorStartNextLoop(getOnErrorStartNextLoop());
        return user;
    }

    @Override
    public JMeterThread addNewThread(int delay, StandardJMeterEngine engine) {
        int index;
        synchronized (this) {
            index = getNumThreads();
            setNumThreads(index + 1);
        }
        JMeterThread user = newUser(engine, index);
        user.setInitialDelay(delay);
        Thread t = factory.newThread(user);
        t.setName(user.getThreadName());
        users.put(user, t);
        t.start();
        JMeterContextService.addTotalThreads(1);
        return user;
    }

    @Override
    public void threadFinished(JMeterThread thread) {
        Map<JMeterThread, Thread> u = users;
        if (u != null) {
            u.remove(thread);
        }
    }

    @Override
    public boolean stopThread(String threadName, boolean now) {
        for (Map.Entry<JMeterThread, Thread> e : activeUsers().entrySet()) {
            if (e.getKey().getThreadName().equals(threadName)) {
                UserThreads.stop(e.getKey(), e.getValue(), now);
                return true;
            }
        }
        return false;
    }

    @Override
    public int numberOfActiveThreads() {
        return activeUsers().size();
    }

    @Override
    public boolean verifyThreadsStopped() {
        if (!UserThreads.joined(starter, STOP_WAIT_MILLIS, STOP_WAIT_MILLIS)) {
            return false;
        }
        for (Thread t : activeUsers().values()) {
            if (!UserThreads.joined(t, STOP_WAIT_MILLIS, STOP_WAIT_MILLIS)) {
                log.warn("Thread won't exit: {}", t.getName());
                return false;
            }
        }
        return true;
    }

    @Override
    public void waitThreadsStopped() {
        UserThreads.joined(starter, STOP_WAIT_MILLIS, 0);
        for (Thread t : activeUsers().values()) {
            UserThreads.joined(t, STOP_WAIT_MILLIS, 0);
        }
    }

    @Override
    public void tellThreadsToStop() {
        running = false;
        interruptStarter();
        activeUsers().forEach((user, thread) -> UserThreads.stop(user, thread, true));
    }

    @Override
    public void stop() {
        running = false;
        interruptStarter();
        activeUsers().keySet().forEach(JMeterThread::stop);
    }

    private void interruptStarter() {
        Thread s = starter;
        if (s != null) {
            s.interrupt();
        }
    }

    private Map<JMeterThread, Thread> activeUsers() {
        Map<JMeterThread, Thread> u = users;
        return u == null ? Map.of() : u;
    }

    public void setRampUp(String seconds) {
        setProperty(PluginNames.USERS_RAMP_UP, seconds);
    }

    public void setHold(String seconds) {
        setProperty(PluginNames.USERS_HOLD, seconds);
    }

    public void setDelay(String seconds) {
        setProperty(PluginNames.USERS_DELAY, seconds);
    }

    /** Iterations per user; -1 loops until the hold time ends (or the test stops). */
    public void setLoops(String loops) {
        LoopController c = new LoopController();
        c.setContinueForever(false);
        c.setProperty(LoopController.LOOPS, loops);
        setSamplerController(c);
    }
}
