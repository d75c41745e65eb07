"""The apps' kernel manager under Voila (prayatul_edu.widgets.serving): a kernel whose page
request is dropped while the page loads is shut down at once; a page that arrives whole
keeps its kernel, however slowly it came. Real kernels, a page request as tornado makes
it (a handler whose connection calls back when the browser closes it, and stops calling
back once the response is finished). The browser test tests/e2e/test_kernels.py reloads
a served app ten times in four seconds."""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("jupyter_server")

from jupyter_server import CallContext  # noqa: E402
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from tornado.web import HTTPError  # noqa: E402

from prayatul_edu.widgets.serving import PAGE_LEFT, LectureKernelManager  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


class Connection:
    """What tornado's HTTP connection offers a request handler: one close callback."""

    def __init__(self):
        self.callback = None

    def set_close_callback(self, callback):
        self.callback = callback

    def close(self):                          # the browser drops the request
        callback, self.callback = self.callback, None
        if callback is not None:
            callback()


class PageRequest:
    """A page's request handler: tornado registers ``on_connection_close`` and clears it
    when the response is finished."""

    def __init__(self):
        self.connection = Connection()
        self.request = SimpleNamespace(connection=self.connection)
        self.connection.set_close_callback(self.on_connection_close)
        self.told = 0

    def on_connection_close(self):
        self.told += 1

    def finish(self):
        self.connection.set_close_callback(None)


async def _kernels_within(manager, count: int, seconds: float = 30.0) -> int:
    deadline = time.monotonic() + seconds
    while len(manager.list_kernel_ids()) > count and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return len(manager.list_kernel_ids())


async def _as_page(page: PageRequest, body):
    CallContext.set(CallContext.JUPYTER_HANDLER, page)    # what JupyterHandler.prepare does
    return await body()


class LeftWhileStarting(AsyncMappingKernelManager):
    """Beneath :class:`LectureKernelManager`: the page named in ``leaving`` is left just
    as its kernel starts (whatever the machine's speed; a timer could fire too late)."""

    leaving: PageRequest | None = None

    async def start_kernel(self, *args, **kwargs) -> str:
        page, self.leaving = self.leaving, None
        if page is not None:
            page.connection.close()
        return await super().start_kernel(*args, **kwargs)


class Manager(LectureKernelManager, LeftWhileStarting):
    """The apps' kernel manager over real kernels, with the hook above beneath it."""


def test_a_page_left_while_loading_takes_its_kernel_a_finished_page_keeps_it():
    assert Manager.__mro__[1:3] == (LectureKernelManager, LeftWhileStarting)

    async def scenario():
        manager = Manager()
        try:
            # left while its kernel starts: the request ends (499), the kernel follows
            early = PageRequest()
            manager.leaving = early
            with pytest.raises(HTTPError) as refused:
                await _as_page(early, manager.start_kernel)
            assert refused.value.status_code == PAGE_LEFT and early.told == 1
            assert await _kernels_within(manager, 0) == 0

            # left while the notebook runs (the page still streaming): the kernel is shut
            # down and the request, waiting for the notebook, stops
            late = PageRequest()
            started = asyncio.Event()

            async def streaming():
                await manager.start_kernel()
                started.set()
                await asyncio.sleep(3600)               # the notebook, the page streaming

            request = asyncio.ensure_future(_as_page(late, streaming))
            await asyncio.wait_for(started.wait(), 60)
            assert len(manager.list_kernel_ids()) == 1
            late.connection.close()
            assert await _kernels_within(manager, 0) == 0
            with pytest.raises(asyncio.CancelledError):
                await request
            assert late.told == 1

            # a page sent whole (however slowly) and left later: its kernel stays (its
            # own shutdown request or the culler ends it)
            whole = PageRequest()

            async def sent_whole():
                kernel = await manager.start_kernel()
                await asyncio.sleep(0.5)                 # a slow page
                whole.finish()
                return kernel

            kernel = await _as_page(whole, sent_whole)
            whole.connection.close()
            await asyncio.sleep(0.5)
            assert manager.list_kernel_ids() == [kernel] and whole.told == 0

            # no page request at all (a kernel started by anything else): untouched
            other = await manager.start_kernel()
            assert sorted(manager.list_kernel_ids()) == sorted([kernel, other])
        finally:
            await manager.shutdown_all(now=True)

    # on a thread of its own: a worker that ran the browser tests before this file still
    # has Playwright's event loop running on its main thread (asyncio.run would refuse)
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()


def test_voila_json_serves_the_apps_with_this_kernel_manager():
    config = json.loads((ROOT / "voila.json").read_text())
    name = config["VoilaConfiguration"]["multi_kernel_manager_class"]
    module, _, cls = name.rpartition(".")
    assert getattr(__import__(module, fromlist=[cls]), cls) is LectureKernelManager
    # the culler still ends what no page request covers: a tab that crashed
    assert config["MappingKernelManager"]["cull_idle_timeout"] > 0
