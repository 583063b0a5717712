# estimate kind: fixed-length slices of a token array of known dtype (nanoGPT-style)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Tokens(Dataset):
    def __init__(self, path, block_size=256):
        self.data = np.memmap(path, dtype=np.uint16, mode="r")
        self.block_size = block_size

    def __len__(self):
        return len(self.data) - self.block_size - 1

    def __getitem__(self, i):
        x = torch.from_numpy(self.data[i:i + self.block_size].astype(np.int64))
        y = torch.from_numpy(self.data[i + 1:i + 1 + self.block_size].astype(np.int64))
        return x, y


def make(path="train.bin"):
    return DataLoader(Tokens(path, block_size=64), batch_size=12, num_workers=2)


def make_default(path="train.bin"):
    return DataLoader(Tokens(path), batch_size=4, num_workers=2)  # block_size: the default 256
